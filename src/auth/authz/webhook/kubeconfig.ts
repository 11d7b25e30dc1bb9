// The kubeconfig an authorization webhook is reached through (the flags'
// --authorization-webhook-config-file, a file's connectionInfo.kubeConfigFile),
// read as client-go's clientcmd reads it: the current context's cluster (server,
// CA, TLS server name, insecure-skip-tls-verify) and user (client certificate
// and key, token or token file, basic auth), paths relative to the kubeconfig's
// folder, with clientcmd's and transport's refusals. Exec and auth-provider users are refused.
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { decodeYaml } from '../../../codecs/yaml.js';
import { isStatusError } from '../../../errors/status-error.js';

/** Far beyond any real kubeconfig or certificate; a wrong path cannot exhaust memory. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface WebhookKubeconfig {
  readonly server: string;
  readonly caPem?: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly certPem?: string;
  readonly keyPem?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** The kubeconfig cannot be used; the message names the file, never its secrets. */
export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';
}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

function str(o: Obj, key: string, where: string): string | undefined {
  const v = own(o, key);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new KubeconfigError(`${where}.${key} must be a string`);
  return v;
}

/** A file's text, bounded; the error carries the path and the system's reason only. */
export function readBoundedFile(path: string): string {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new KubeconfigError(`${path} is larger than ${MAX_FILE_BYTES} bytes`);
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof KubeconfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new KubeconfigError(code === 'ENOENT' ? `open ${path}: no such file or directory` : `read ${path}: ${code ?? (err as Error).message}`);
  }
}

/** clientcmd's named lists (`[{name, cluster: {...}}]`), as a lookup of the entry's body. */
function named(config: Obj, list: string, kind: string, name: string): Obj | undefined {
  const entries = own(config, list);
  if (entries === undefined || entries === null) return undefined;
  if (!Array.isArray(entries)) throw new KubeconfigError(`${list} must be a list`);
  const found = entries.find((e: unknown) => isObject(e) && own(e, 'name') === name) as Obj | undefined;
  const body = found === undefined ? undefined : own(found, kind);
  return isObject(body) ? body : undefined;
}

/**
 * Inline `<field>-data` (base64) or the `<field>` file. Both at once is one of
 * clientcmd's validation errors (its text says data "will override", but
 * ConfirmUsable refuses the kubeconfig), given here as `both`.
 */
function dataOrFile(o: Obj, field: string, where: string, base: string, both: string): string | undefined {
  const data = str(o, `${field}-data`, where);
  const file = str(o, field, where);
  if (data !== undefined && file !== undefined) throw new KubeconfigError(`invalid configuration: ${both}`);
  if (data !== undefined) return Buffer.from(data, 'base64').toString('utf8');
  return file === undefined ? undefined : readBoundedFile(isAbsolute(file) ? file : join(base, file));
}

/** Parses kubeconfig text; `base` is the folder relative paths are read from. */
export function parseWebhookKubeconfig(text: string, base: string): WebhookKubeconfig {
  let config: unknown;
  try {
    config = decodeYaml(Buffer.from(text, 'utf8'));
  } catch (err) {
    if (isStatusError(err)) throw new KubeconfigError(err.message);
    throw err;
  }
  // clientcmd with no current context finds no server: its "empty config" error.
  const currentContext = isObject(config) ? str(config, 'current-context', 'kubeconfig') : undefined;
  if (!isObject(config) || currentContext === undefined) {
    throw new KubeconfigError('invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable');
  }
  const context = named(config, 'contexts', 'context', currentContext);
  if (context === undefined) throw new KubeconfigError(`invalid configuration: context was not found for specified context: ${currentContext}`);
  const clusterName = str(context, 'cluster', 'context') ?? '';
  const cluster = named(config, 'clusters', 'cluster', clusterName);
  const server = cluster === undefined ? undefined : str(cluster, 'server', 'cluster');
  if (cluster === undefined || server === undefined) throw new KubeconfigError(`invalid configuration: no server found for cluster ${JSON.stringify(clusterName)}`);
  const userName = str(context, 'user', 'context');
  const user = userName === undefined ? {} : (named(config, 'users', 'user', userName) ?? {});
  if (own(user, 'exec') != null || own(user, 'auth-provider') != null) {
    throw new KubeconfigError(`user ${JSON.stringify(userName)}: exec and auth-provider credentials are not supported for webhooks`);
  }
  const insecure = own(cluster, 'insecure-skip-tls-verify');
  const tokenFile = str(user, 'tokenFile', 'user');
  const token = str(user, 'token', 'user') ?? (tokenFile === undefined ? undefined : readBoundedFile(isAbsolute(tokenFile) ? tokenFile : join(base, tokenFile)).trim());
  const fields: Record<string, string | undefined> = {
    caPem: dataOrFile(cluster, 'certificate-authority', 'cluster', base, `certificate-authority-data and certificate-authority are both specified for ${clusterName}. certificate-authority-data will override.`),
    tlsServerName: str(cluster, 'tls-server-name', 'cluster'),
    certPem: dataOrFile(user, 'client-certificate', 'user', base, `client-cert-data and client-cert are both specified for ${userName}. client-cert-data will override.`),
    keyPem: dataOrFile(user, 'client-key', 'user', base, `client-key-data and client-key are both specified for ${userName}; client-key-data will override`),
    token,
    username: str(user, 'username', 'user'),
    password: str(user, 'password', 'user'),
  };
  if (fields.certPem !== undefined && fields.keyPem === undefined) {
    throw new KubeconfigError(`invalid configuration: client-key-data or client-key must be specified for ${userName} to use the clientCert authentication method.`);
  }
  // transport.TLSConfigFor, when the client is made.
  if (insecure === true && fields.caPem !== undefined) throw new KubeconfigError('specifying a root certificates file with the insecure flag is not allowed');
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new KubeconfigError(`invalid configuration: server ${JSON.stringify(server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new KubeconfigError(`invalid configuration: server ${JSON.stringify(server)} must be an http or https URL`);
  const present = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  return { server, insecureSkipTlsVerify: insecure === true, ...present };
}

/** Reads the kubeconfig at `file` (client-go's LoadKubeconfig for webhooks). */
export function readWebhookKubeconfig(file: string): WebhookKubeconfig {
  const text = readBoundedFile(file);
  try {
    return parseWebhookKubeconfig(text, dirname(file));
  } catch (err) {
    if (err instanceof KubeconfigError) throw new KubeconfigError(`kubeconfig ${file}: ${err.message}`);
    throw err;
  }
}
