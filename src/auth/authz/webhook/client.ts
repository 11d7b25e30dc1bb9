// One POST of a SubjectAccessReview to a webhook, as client-go's REST client
// makes it for apiserver's generic webhook (util/webhook): the kubeconfig's TLS
// and credentials, a JSON body, one deadline over the whole exchange (the
// rest.Config Timeout), and failures classified as apimachinery classifies them,
// so the retry loop (DefaultShouldRetry) and the metrics see what kube sees.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { WebhookKubeconfig } from './kubeconfig.js';
import { serverResponseError, WebhookCallError } from './errors.js';

/** kapi's bound on a response (kube reads any size); a SubjectAccessReview is a few hundred bytes. */
export const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export interface WebhookResponse {
  readonly statusCode: number;
  readonly body: Buffer;
}

export interface WebhookClient {
  /** Resolves with any 2xx response; rejects with a WebhookCallError otherwise. */
  post(body: string): Promise<WebhookResponse>;
  /** Closes idle connections; calls after it still work. */
  close(): void;
}

/** Node's TLS verification codes in crypto/x509's words (the part after Go's `tls: failed to verify certificate: `). */
const X509_REASONS: Readonly<Record<string, string>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'x509: certificate signed by unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'x509: certificate signed by unknown authority',
  SELF_SIGNED_CERT_IN_CHAIN: 'x509: certificate signed by unknown authority',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'x509: certificate signed by unknown authority',
  CERT_HAS_EXPIRED: 'x509: certificate has expired or is not yet valid',
  CERT_NOT_YET_VALID: 'x509: certificate has expired or is not yet valid',
};

/** A transport failure as Go's url.Error prints it; only a reset connection is retried (utilnet.IsConnectionReset). */
function transportError(err: NodeJS.ErrnoException, url: URL): WebhookCallError {
  const where = `Post ${JSON.stringify(url.href)}`;
  const code = err.code ?? '';
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  if (code === 'ECONNREFUSED') return new WebhookCallError(`${where}: dial tcp ${url.hostname}:${port}: connect: connection refused`, { retryable: false });
  // "socket hang up" is a peer that closed without answering (Go's EOF); a read
  // ECONNRESET is a reset connection.
  if (code === 'ECONNRESET') {
    return err.message === 'socket hang up' ? new WebhookCallError(`${where}: EOF`, { retryable: false }) : new WebhookCallError(`${where}: read: connection reset by peer`, { retryable: true });
  }
  const x509 = Object.hasOwn(X509_REASONS, code) ? X509_REASONS[code] : undefined;
  if (x509 !== undefined) return new WebhookCallError(`${where}: tls: failed to verify certificate: ${x509}`, { retryable: false });
  return new WebhookCallError(`${where}: ${err.message}`, { retryable: false });
}

/** client-go's error for a body that stops short (rest.Request.transformResponse). */
const cutOff = () => new WebhookCallError('unexpected error when reading response body. Please retry. Original error: unexpected EOF', { retryable: false });

function readBody(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        res.destroy(new WebhookCallError(`response body is larger than ${MAX_RESPONSE_BYTES} bytes`, { retryable: false }));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', (err) => reject(err instanceof WebhookCallError ? err : cutOff()));
    // A response cut off (by the peer, or by the deadline) may close without an error event.
    res.on('close', () => {
      if (!res.complete) reject(cutOff());
    });
  });
}

export function createWebhookClient(opts: { readonly kubeconfig: WebhookKubeconfig; readonly timeoutMs: number }): WebhookClient {
  const k = opts.kubeconfig;
  const url = new URL(k.server);
  const secure = url.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({
        keepAlive: true,
        rejectUnauthorized: !k.insecureSkipTlsVerify,
        ...(k.caPem === undefined ? {} : { ca: k.caPem }),
        ...(k.certPem === undefined ? {} : { cert: k.certPem, key: k.keyPem }),
        ...(k.tlsServerName === undefined ? {} : { servername: k.tlsServerName }),
      })
    : new HttpAgent({ keepAlive: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kapi' };
  if (k.token !== undefined) headers.authorization = `Bearer ${k.token}`;
  else if (k.username !== undefined) headers.authorization = `Basic ${Buffer.from(`${k.username}:${k.password ?? ''}`).toString('base64')}`;

  const post = (body: string): Promise<WebhookResponse> =>
    new Promise((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const req = send(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } });
      let timedOut = false;
      // The rest.Config Timeout bounds the whole exchange, the body's reading included.
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy();
      }, opts.timeoutMs);
      const fail = (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (timedOut) reject(new WebhookCallError(`Post ${JSON.stringify(url.href)}: context deadline exceeded`, { retryable: false, timeout: true }));
        else reject(err instanceof WebhookCallError ? err : transportError(err, url));
      };
      req.on('error', fail);
      req.on('response', (res) => {
        readBody(res).then((buf) => {
          clearTimeout(timer);
          const statusCode = res.statusCode ?? 0;
          // client-go treats 200–206 as success (transformResponse).
          if (statusCode >= 200 && statusCode <= 206) return resolve({ statusCode, body: buf });
          reject(serverResponseError({ statusCode, body: buf, contentType: res.headers['content-type'], retryAfter: res.headers['retry-after'] }));
        }, fail);
      });
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}
