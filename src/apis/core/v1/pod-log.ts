// pods/<name>/log: a container's log, read from the kubelet of the pod's node as
// kube's LogREST does. In kube's order: the PodLogOptions of the query are read
// (400 with Go's parse errors) and validated (422 PodLogOptions), the pod is read
// (404), the container chosen (400 when it must be named or is not the pod's); a
// pod on no node answers 204 with nothing; otherwise the node must exist (404) and
// have an address of a preferred type, and the kubelet's
// /containerLogs/<ns>/<pod>/<container> is streamed as text/plain, its refusals
// mapped as kube's GenericHttpResponseChecker maps them.
import { badRequest, backendInternalError, genericServerResponse, invalid, notFound } from '../../../errors/status-error.js';
import { type FieldError, forbiddenField, invalidValue, path, unnamedPath } from '../../../schema/field-errors.js';
import type { StreamAnswer, SubresourceConnectContext, SubresourceDefinition } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { RFC3339_LAYOUT, formatGoTime, parseGoTime } from '../../../schema/go-time.js';
import { parseGoInt64 } from '../../../schema/go-strconv.js';
import { type Json, itemsAt, objectAt, stringAt } from './helpers.js';
import { type KubeletClientConfig, joinHostPort, kubeletEndpoint, kubeletGet } from './kubelet-client.js';

const NODES = { group: '', plural: 'nodes', scope: 'Cluster' } as const;
/** How much of a kubelet's refusal kube reads into the Status. */
const MAX_ERROR_BODY = 50_000;

export interface PodLogOptions {
  readonly container: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly insecureSkipTLSVerifyBackend: boolean;
  readonly sinceSeconds?: bigint;
  /** Whole seconds since the epoch, as Go's RFC 3339 formatting keeps them. */
  readonly sinceTime?: { seconds: number; nanos: number };
  readonly tailLines?: bigint;
  readonly limitBytes?: bigint;
  readonly stream?: string;
}

/** strconv.ParseInt(s, 10, 64) as the query converter calls it: Go's error is a 400. */
function parseInt64(raw: string): bigint {
  const parsed = parseGoInt64(raw);
  if (parsed.error !== undefined) throw badRequest(parsed.error);
  return parsed.value;
}

/** The query converter's bool: `0` and `false` in any case are false, anything else (even empty) true. */
function queryBool(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  return raw !== null && raw !== '0' && raw.toLowerCase() !== 'false';
}

/** The PodLogOptions a query carries (the first value of each parameter, as kube reads them). */
export function parsePodLogOptions(query: URLSearchParams): PodLogOptions {
  const int = (name: string): bigint | undefined => {
    const raw = query.get(name);
    return raw === null ? undefined : parseInt64(raw);
  };
  let sinceTime: PodLogOptions['sinceTime'];
  const rawTime = query.get('sinceTime');
  if (rawTime !== null) {
    // metav1.Time's query form: empty or "null" is the zero time.
    if (rawTime === '' || rawTime === 'null') sinceTime = { seconds: -62135596800, nanos: 0 };
    else {
      const t = parseGoTime(RFC3339_LAYOUT, rawTime);
      if (t.error !== undefined) throw badRequest(t.error);
      sinceTime = { seconds: t.seconds, nanos: 0 };
    }
  }
  const stream = query.get('stream');
  const sinceSeconds = int('sinceSeconds');
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  return {
    container: query.get('container') ?? '',
    follow: queryBool(query, 'follow'),
    previous: queryBool(query, 'previous'),
    timestamps: queryBool(query, 'timestamps'),
    insecureSkipTLSVerifyBackend: queryBool(query, 'insecureSkipTLSVerifyBackend'),
    ...(sinceSeconds === undefined ? {} : { sinceSeconds }),
    ...(sinceTime === undefined ? {} : { sinceTime }),
    ...(tailLines === undefined ? {} : { tailLines }),
    ...(limitBytes === undefined ? {} : { limitBytes }),
    ...(stream === null ? {} : { stream }),
  };
}

/** kube's ValidatePodLogOptions with PodLogsQuerySplitStreams off (1.36's default). */
export function validatePodLogOptions(opts: PodLogOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0n) errs.push(invalidValue(path('tailLines'), Number(opts.tailLines), 'must be greater than or equal to 0'));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1n) errs.push(invalidValue(path('limitBytes'), Number(opts.limitBytes), 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) errs.push(forbiddenField(unnamedPath(), 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1n) errs.push(invalidValue(path('sinceSeconds'), Number(opts.sinceSeconds), 'must be greater than 0'));
  if (opts.stream !== undefined) errs.push(forbiddenField(path('stream'), 'may not be specified'));
  return errs;
}

/** Every container name of the pod: init, regular, then ephemeral (kube's VisitContainers order). */
function containerNames(spec: Json | undefined): string[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((list) => itemsAt(spec, list).map((c) => stringAt(c, 'name')));
}

/** kube's ValidateContainer: the named container, or the only regular one. */
export function chooseContainer(pod: KubeObject, asked: string): string {
  const spec = objectAt(pod, 'spec');
  const name = pod.metadata.name ?? '';
  if (asked === '') {
    const regular = itemsAt(spec, 'containers');
    if (regular.length === 1) return stringAt(regular[0], 'name');
    if (regular.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containerNames(spec).join(' ')}]`);
  }
  if (!containerNames(spec).includes(asked)) throw badRequest(`container ${asked} is not valid for pod ${name}`);
  return asked;
}

/** The kubelet's query: only what was asked, keys sorted (Go's url.Values.Encode). */
function kubeletQuery(opts: PodLogOptions): string {
  const params = new URLSearchParams();
  if (opts.follow) params.set('follow', 'true');
  if (opts.limitBytes !== undefined) params.set('limitBytes', String(opts.limitBytes));
  if (opts.previous) params.set('previous', 'true');
  if (opts.sinceSeconds !== undefined) params.set('sinceSeconds', String(opts.sinceSeconds));
  if (opts.sinceTime !== undefined) params.set('sinceTime', formatGoTime(RFC3339_LAYOUT, opts.sinceTime.seconds, 0));
  if (opts.tailLines !== undefined) params.set('tailLines', String(opts.tailLines));
  if (opts.timestamps) params.set('timestamps', 'true');
  return params.toString();
}

/** Up to MAX_ERROR_BODY bytes of a refusal's body, as text. */
async function errorBody(res: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ERROR_BODY) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8');
}

async function streamLog(ctx: SubresourceConnectContext, kubelet: KubeletClientConfig): Promise<StreamAnswer> {
  const opts = parsePodLogOptions(ctx.query);
  const errs = validatePodLogOptions(opts);
  if (errs.length > 0) throw invalid({ group: '', kind: 'PodLogOptions' }, ctx.name, errs);
  const pod = await ctx.parent();
  const podName = pod.metadata.name ?? '';
  const container = chooseContainer(pod, opts.container);
  const nodeName = stringAt(objectAt(pod, 'spec'), 'nodeName');
  if (nodeName === '') return { noContent: true };
  const node = await ctx.getObject(NODES, '', nodeName);
  if (node === undefined) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  const endpoint = kubeletEndpoint(node, kubelet);
  const segments = [pod.metadata.namespace ?? '', podName, container].map(encodeURIComponent).join('/');
  const query = kubeletQuery(opts);
  const url = new URL(`https://${joinHostPort(endpoint.host, endpoint.port)}/containerLogs/${segments}${query === '' ? '' : `?${query}`}`);
  const res = await kubeletGet(url, kubelet, { insecure: opts.insecureSkipTLSVerifyBackend, signal: ctx.signal });
  const code = res.statusCode ?? 0;
  if (code >= 200 && code <= 206) return { contentType: 'text/plain', body: res };
  const body = await errorBody(res);
  res.destroy();
  if (code === 500) throw backendInternalError(body);
  if (code === 400) throw badRequest(body);
  throw genericServerResponse(code, 'pods/log', podName, body);
}

/**
 * PodLogOptions' query parameters as kube publishes them: sinceTime is read but not
 * published (kube's parameter generator skips its type).
 */
const LOG_PARAMETERS: NonNullable<SubresourceDefinition['connectParameters']> = [
  { name: 'container', type: 'string' },
  { name: 'follow', type: 'boolean' },
  { name: 'insecureSkipTLSVerifyBackend', type: 'boolean' },
  { name: 'limitBytes', type: 'integer' },
  { name: 'previous', type: 'boolean' },
  { name: 'sinceSeconds', type: 'integer' },
  { name: 'stream', type: 'string' },
  { name: 'tailLines', type: 'integer' },
  { name: 'timestamps', type: 'boolean' },
];

/** pods/log over the kubelets of `kubelet`'s configuration. */
export function podLogSubresource(kubelet: KubeletClientConfig): SubresourceDefinition {
  return { verbs: ['get'], connect: (ctx) => streamLog(ctx, kubelet), connectParameters: LOG_PARAMETERS };
}
