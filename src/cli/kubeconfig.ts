// The part of a kubeconfig `kapi credential --kubeconfig` reads, as kubectl reads
// it: the context (the current one, or --context), its cluster (server, CA, TLS
// server name, insecure-skip-tls-verify) and its user's static credentials
// (client certificate and key, token) from inline data or files, file paths
// relative to the kubeconfig's folder. A user that is itself an exec or
// auth-provider entry is refused: the plugin does not run plugins.
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import yaml from 'js-yaml';

/** Far beyond any real kubeconfig; a bound so a wrong path cannot exhaust memory. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export class CredentialError extends Error {
  override readonly name = 'CredentialError';
}

export interface ClusterEndpoint {
  readonly server: string;
  readonly caPem?: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify: boolean;
}

export interface StaticCredentials {
  readonly token?: string;
  readonly certPem?: string;
  readonly keyPem?: string;
}

export interface KubeconfigTarget {
  readonly cluster: ClusterEndpoint;
  readonly user: StaticCredentials;
}

/** A file's text, bounded; the error names the file and never its content. */
export function readTextFile(path: string, what: string): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    throw new CredentialError(`${what} ${JSON.stringify(path)}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  if (size > MAX_FILE_BYTES) throw new CredentialError(`${what} ${JSON.stringify(path)} is larger than ${MAX_FILE_BYTES} bytes`);
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new CredentialError(`${what} ${JSON.stringify(path)}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function str(obj: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = own(obj, key);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new CredentialError(`${where}.${key} must be a string`);
  return v;
}

/** kubeconfig lists are `[{name, <kind>: {...}}]`; answers the named entry's body. */
function named(config: Record<string, unknown>, list: string, kind: string, name: string, file: string): Record<string, unknown> {
  const entries = own(config, list);
  if (entries !== undefined && entries !== null && !Array.isArray(entries)) throw new CredentialError(`kubeconfig ${file}: ${list} must be a list`);
  const found = (entries ?? []).find((e: unknown) => isObject(e) && own(e, 'name') === name);
  if (found === undefined) throw new CredentialError(`kubeconfig ${file}: no ${kind} named ${JSON.stringify(name)}`);
  const body = own(found as Record<string, unknown>, kind);
  if (!isObject(body)) throw new CredentialError(`kubeconfig ${file}: ${kind} ${JSON.stringify(name)} has no ${kind} fields`);
  return body;
}

/** Inline `<field>-data` (base64) wins over the `<field>` file, as in client-go. */
function dataOrFile(obj: Record<string, unknown>, field: string, where: string, base: string): string | undefined {
  const data = str(obj, `${field}-data`, where);
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  const path = str(obj, field, where);
  if (path === undefined) return undefined;
  return readTextFile(isAbsolute(path) ? path : join(base, path), `${where}.${field}`);
}

export function loadKubeconfig(path: string, contextName?: string): KubeconfigTarget {
  let config: unknown;
  try {
    // js-yaml's default schema builds no functions or class instances; JSON is YAML too.
    config = yaml.load(readTextFile(path, 'kubeconfig'), { filename: path });
  } catch (err) {
    if (err instanceof CredentialError) throw err;
    throw new CredentialError(`kubeconfig ${JSON.stringify(path)} is not valid YAML`);
  }
  if (!isObject(config)) throw new CredentialError(`kubeconfig ${JSON.stringify(path)} is not a kubeconfig`);
  const file = JSON.stringify(path);
  const ctxName = contextName ?? str(config, 'current-context', 'kubeconfig');
  if (ctxName === undefined) throw new CredentialError(`kubeconfig ${file} has no current-context; pass --context`);
  const context = named(config, 'contexts', 'context', ctxName, file);
  const clusterName = str(context, 'cluster', 'context');
  const userName = str(context, 'user', 'context');
  if (clusterName === undefined || userName === undefined) throw new CredentialError(`kubeconfig ${file}: context ${JSON.stringify(ctxName)} needs a cluster and a user`);
  const base = dirname(path);
  const c = named(config, 'clusters', 'cluster', clusterName, file);
  const server = str(c, 'server', 'cluster');
  if (server === undefined) throw new CredentialError(`kubeconfig ${file}: cluster ${JSON.stringify(clusterName)} has no server`);
  const caPem = dataOrFile(c, 'certificate-authority', 'cluster', base);
  const tlsServerName = str(c, 'tls-server-name', 'cluster');
  const u = named(config, 'users', 'user', userName, file);
  for (const unsupported of ['exec', 'auth-provider']) {
    if (own(u, unsupported) !== undefined && own(u, unsupported) !== null) {
      throw new CredentialError(`kubeconfig ${file}: user ${JSON.stringify(userName)} uses ${unsupported}; kapi credential needs a certificate or a token there`);
    }
  }
  const tokenFile = str(u, 'tokenFile', 'user');
  const token = str(u, 'token', 'user') ?? (tokenFile === undefined ? undefined : readTextFile(isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile), 'user.tokenFile').trim());
  const certPem = dataOrFile(u, 'client-certificate', 'user', base);
  const keyPem = dataOrFile(u, 'client-key', 'user', base);
  if ((certPem === undefined) !== (keyPem === undefined)) throw new CredentialError(`kubeconfig ${file}: user ${JSON.stringify(userName)} needs both a client certificate and a key`);
  if (token === undefined && certPem === undefined) throw new CredentialError(`kubeconfig ${file}: user ${JSON.stringify(userName)} has neither a client certificate nor a token`);
  return {
    cluster: {
      server,
      ...(caPem === undefined ? {} : { caPem }),
      ...(tlsServerName === undefined ? {} : { tlsServerName }),
      insecureSkipTlsVerify: own(c, 'insecure-skip-tls-verify') === true,
    },
    user: { ...(token === undefined ? {} : { token }), ...(certPem === undefined ? {} : { certPem, keyPem: keyPem! }) },
  };
}
