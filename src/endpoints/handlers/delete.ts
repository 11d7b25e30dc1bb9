// DELETE and DELETE-collection. DeleteOptions come from the query and, when
// present, the body (JSON, YAML or protobuf; the body wins, as in kube), and are
// validated as ValidateDeleteOptions does. The answer is what the store decided:
// the object or a Success Status for one object, the deleted items for a collection.
import { badRequest } from '../../errors/status-error.js';
import { invalidValue, notSupported, path, type FieldError } from '../../schema/field-errors.js';
import type { Preconditions } from '../../storage/storage.js';
import type { PropagationPolicy } from '../../registry/store/types.js';
import { builtinDefinitions } from '../../schema/definitions.js';
import { checkTyped, isSchemaTypeError } from '../../schema/typed.js';
import { decodeBody, rawBody } from '../body.js';
import { listOptionsFrom } from './list.js';
import { intParam, invalidOptions, validateDryRun } from './options.js';
import { respond, userOf, type Handler, type HandlerScope } from './scope.js';
import type { FastifyRequest } from 'fastify';

interface ParsedDeleteOptions {
  readonly dryRun: boolean;
  readonly propagationPolicy?: PropagationPolicy;
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: Preconditions;
}

const POLICIES: readonly string[] = ['Foreground', 'Background', 'Orphan'];
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';

function bodyOptions(request: FastifyRequest, scope: HandlerScope): Record<string, unknown> {
  if (rawBody(request).length === 0) return {};
  const decoded = decodeBody(request, scope, { expected: { group: '', version: 'v1', kind: 'DeleteOptions' } });
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) {
    throw badRequest('the body of the request could not be decoded as DeleteOptions');
  }
  // Typed like every other body; kube answers its decoder's error here as a 500, a client's mistake is a 400.
  try {
    checkTyped(DELETE_OPTIONS, decoded, builtinDefinitions);
  } catch (err) {
    if (isSchemaTypeError(err)) throw badRequest(err.detail);
    throw err;
  }
  return decoded as Record<string, unknown>;
}

export function parseDeleteOptions(request: FastifyRequest, scope: HandlerScope): ParsedDeleteOptions {
  const q = scope.query;
  const body = bodyOptions(request, scope);
  const dryRun = Array.isArray(body.dryRun) ? (body.dryRun as unknown[]).map(String) : q.getAll('dryRun');
  const policy = (body.propagationPolicy ?? q.get('propagationPolicy') ?? undefined) as string | undefined;
  const orphan = body.orphanDependents ?? q.get('orphanDependents') ?? undefined;
  const grace = typeof body.gracePeriodSeconds === 'number' ? body.gracePeriodSeconds : intParam(q, 'gracePeriodSeconds');
  const pre = (body.preconditions ?? {}) as { uid?: unknown; resourceVersion?: unknown };

  const errs: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) {
    errs.push(invalidValue(path('propagationPolicy'), policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !POLICIES.includes(policy)) errs.push(notSupported(path('propagationPolicy'), policy, [...POLICIES, 'nil']));
  errs.push(...validateDryRun(dryRun));
  invalidOptions('DeleteOptions', errs);

  const preconditions: { uid?: string; resourceVersion?: string } = {};
  if (typeof pre.uid === 'string') preconditions.uid = pre.uid;
  if (typeof pre.resourceVersion === 'string') preconditions.resourceVersion = pre.resourceVersion;
  return {
    dryRun: dryRun.length > 0,
    ...(policy === undefined ? {} : { propagationPolicy: policy as PropagationPolicy }),
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
    ...(Object.keys(preconditions).length === 0 ? {} : { preconditions }),
  };
}

export const deleteHandler: Handler = async (request, reply, scope) => {
  const options = parseDeleteOptions(request, scope);
  const result = await scope.store.delete({ ...options, user: userOf(request), namespace: scope.namespace, name: scope.info.name });
  return respond(request, reply, { code: 200, object: result.response, scope });
};

export const deleteCollectionHandler: Handler = async (request, reply, scope) => {
  const { preconditions: _ignored, ...options } = parseDeleteOptions(request, scope);
  const { limit: _limit, continue: _continue, ...list } = listOptionsFrom(scope);
  const deleted = await scope.store.deleteCollection({ ...list, ...options, user: userOf(request) });
  return respond(request, reply, { code: 200, object: deleted, scope });
};
