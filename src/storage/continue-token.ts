// Continue tokens for paginated lists, byte-compatible with kube-apiserver's
// (k8s.io/apiserver/pkg/storage continue.go): unpadded base64url of
// {"v":"meta.k8s.io/v1","rv":<list revision>,"start":"<next key after the prefix>"}.
// A client may hand a token from one kapi replica to another, or keep one
// across a restart, so the format is a public API and never changes.
import { StorageError } from '../errors/storage-error.js';

const TOKEN_VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** The revision every page of the list is read at; negative means "latest". */
  readonly revision: number;
  /** Read keys strictly after this full key. */
  readonly after: string;
}

/**
 * The token for the page after `lastKey`. Like kube, the start key is the last key
 * plus "\x00": the smallest key sorting after it, so the next page starts there.
 */
export function encodeContinue(opts: { prefix: string; lastKey: string; revision: number }): string {
  if (!opts.lastKey.startsWith(opts.prefix)) {
    throw new Error(`continue: key ${opts.lastKey} is not under prefix ${opts.prefix}`);
  }
  const start = opts.lastKey.slice(opts.prefix.length) + '\x00';
  const json = JSON.stringify({ v: TOKEN_VERSION, rv: opts.revision, start });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** Throws StorageError BadRequest with kube's "continue key is not valid" messages. */
export function decodeContinue(token: string, prefix: string): ContinuePosition {
  const parsed = parseToken(token);
  if (parsed.v !== TOKEN_VERSION) {
    throw invalid(`continue key is not valid: server does not recognize this encoded version ${String(parsed.v)}`);
  }
  if (typeof parsed.rv !== 'number' || !Number.isInteger(parsed.rv) || parsed.rv === 0) {
    throw invalid('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof parsed.start !== 'string' || parsed.start === '') {
    throw invalid('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  }
  // Path traversal guard as in kube: a start key that normalizes differently
  // (".." segments, doubled slashes) could reach outside the listed prefix.
  const rooted = parsed.start.startsWith('/') ? parsed.start : '/' + parsed.start;
  if (cleanPath(rooted) !== rooted) throw invalid(`continue key is not valid: ${parsed.start}`);
  return { revision: parsed.rv, after: keyBefore(prefix + rooted.slice(1)) };
}

/**
 * Our KV reads strictly after a key while kube's token names the first key to
 * read. For our own tokens the start ends in "\x00", so "after the key without
 * it" is the same range. A foreign start key without it is read from itself: we
 * step back to just before it; only a key ending in "\uffff" could fall in between.
 */
function keyBefore(start: string): string {
  if (start.endsWith('\x00')) return start.slice(0, -1);
  const last = start.charCodeAt(start.length - 1);
  return start.slice(0, -1) + String.fromCharCode(last - 1) + '\uffff';
}

interface RawToken {
  readonly v?: unknown;
  readonly rv?: unknown;
  readonly start?: unknown;
}

function parseToken(token: string): RawToken {
  // Node's base64url decoder silently skips bad characters; kube rejects them.
  if (!/^[A-Za-z0-9_-]*$/.test(token)) throw invalid('continue key is not valid: illegal base64 data');
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as RawToken;
  } catch (err) {
    throw invalid(`continue key is not valid: ${(err as Error).message}`, err);
  }
}

/** Go's path.Clean for rooted paths: collapses "//", ".", ".." and a trailing "/". */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return '/' + out.join('/');
}

function invalid(message: string, cause?: unknown): StorageError {
  return new StorageError('BadRequest', message, cause === undefined ? {} : { cause });
}
