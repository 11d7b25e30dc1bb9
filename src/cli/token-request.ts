// A service-account token minted through the TokenRequest API
// (POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token, authentication.k8s.io/v1),
// as `kubectl create token` does, with the credentials of a kubeconfig. The
// token's expiry is the one the server granted (status.expirationTimestamp),
// which may be shorter than the one asked for.
import { request } from 'node:https';
import { CredentialError, type KubeconfigTarget } from './kubeconfig.js';

/** A TokenRequest answer is a few KiB; a bound on what we buffer from the server. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 30_000;

export interface TokenRequestOptions {
  readonly target: KubeconfigTarget;
  readonly namespace: string;
  readonly name: string;
  readonly expirationSeconds: number;
  readonly audiences: readonly string[];
}

export interface IssuedToken {
  readonly token: string;
  readonly expirationTimestamp: Date;
}

function post(opts: TokenRequestOptions, body: string): Promise<{ status: number; text: string }> {
  const { cluster, user } = opts.target;
  const url = new URL(`/api/v1/namespaces/${encodeURIComponent(opts.namespace)}/serviceaccounts/${encodeURIComponent(opts.name)}/token`, cluster.server);
  if (url.protocol !== 'https:') throw new CredentialError(`server ${JSON.stringify(cluster.server)}: only https is supported`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          ...(user.token === undefined ? {} : { authorization: `Bearer ${user.token}` }),
        },
        ...(cluster.caPem === undefined ? {} : { ca: cluster.caPem }),
        ...(user.certPem === undefined ? {} : { cert: user.certPem, key: user.keyPem }),
        ...(cluster.tlsServerName === undefined ? {} : { servername: cluster.tlsServerName }),
        rejectUnauthorized: !cluster.insecureSkipTlsVerify,
        timeout: TIMEOUT_MS,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new CredentialError(`TokenRequest answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new CredentialError(`TokenRequest to ${url.host}: no answer within ${TIMEOUT_MS / 1000}s`)));
    req.on('error', reject);
    req.end(body);
  });
}

function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

export async function requestServiceAccountToken(opts: TokenRequestOptions): Promise<IssuedToken> {
  const body = JSON.stringify({
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { audiences: [...opts.audiences], expirationSeconds: opts.expirationSeconds },
  });
  const who = `${opts.namespace}/${opts.name}`;
  let answer: { status: number; text: string };
  try {
    answer = await post(opts, body);
  } catch (err) {
    if (err instanceof CredentialError) throw err;
    throw new CredentialError(`TokenRequest for ${who}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    throw new CredentialError(`TokenRequest for ${who}: the server answered ${answer.status} without a JSON body`);
  }
  if (answer.status !== 201 && answer.status !== 200) {
    // A Status names what went wrong (NotFound, Forbidden, Invalid); its message holds no secret.
    const message = field(parsed, 'message');
    const text = typeof message === 'string' ? message.replace(/[\r\n]+/g, ' ').slice(0, 500) : 'no message';
    throw new CredentialError(`TokenRequest for ${who}: ${answer.status}: ${text}`);
  }
  const status = field(parsed, 'status');
  const token = field(status, 'token');
  const expiration = field(status, 'expirationTimestamp');
  const at = typeof expiration === 'string' ? new Date(expiration) : undefined;
  if (typeof token !== 'string' || token === '' || at === undefined || Number.isNaN(at.getTime())) {
    throw new CredentialError(`TokenRequest for ${who}: the answer has no status.token and status.expirationTimestamp`);
  }
  return { token, expirationTimestamp: at };
}
