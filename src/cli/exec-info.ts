// The exec credential protocol of client-go (k8s.io/client-go/plugin/pkg/client/
// auth/exec, types in pkg/apis/clientauthentication/{v1,v1beta1}): kubectl runs the
// plugin with KUBERNETES_EXEC_INFO holding an ExecCredential whose spec says
// whether stdin is the user's terminal (`interactive`) and, with
// provideClusterInfo, which cluster it is for; the plugin prints an
// ExecCredential of the same apiVersion whose status holds a token or a client
// certificate and key, and optionally when they expire. The variable is input
// from another process: it is read defensively (bounded, own properties only).

export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';
export const EXEC_CREDENTIAL_VERSIONS = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'] as const;
export type ExecCredentialVersion = (typeof EXEC_CREDENTIAL_VERSIONS)[number];

/**
 * Linux refuses a single environment string over MAX_ARG_STRLEN (128 KiB), so
 * no kubectl can hand a plugin more; anything larger did not come from one.
 */
export const MAX_EXEC_INFO_BYTES = 128 * 1024;

/** spec.cluster (clientauthentication Cluster), the fields kapi credential reads. */
export interface ExecCluster {
  readonly server: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify: boolean;
  /** PEM, decoded from certificate-authority-data. */
  readonly caPem?: string;
}

export interface ExecInfo {
  readonly apiVersion: ExecCredentialVersion;
  /** Whether kubectl handed the plugin its terminal as stdin. */
  readonly interactive: boolean;
  /** Present only when the kubeconfig's exec entry sets provideClusterInfo. */
  readonly cluster?: ExecCluster;
}

export class ExecInfoError extends Error {
  override readonly name = 'ExecInfoError';
}

export function isExecCredentialVersion(v: unknown): v is ExecCredentialVersion {
  return typeof v === 'string' && (EXEC_CREDENTIAL_VERSIONS as readonly string[]).includes(v);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An own property only: `__proto__` in the JSON is an ordinary key and never a lookup path. */
function own(obj: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

function optionalString(obj: Record<string, unknown>, key: string, path: string): string | undefined {
  const v = own(obj, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ExecInfoError(`${EXEC_INFO_ENV}: ${path}.${key} must be a string`);
  return v;
}

function clusterOf(raw: unknown): ExecCluster | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new ExecInfoError(`${EXEC_INFO_ENV}: spec.cluster must be an object`);
  const server = optionalString(raw, 'server', 'spec.cluster') ?? '';
  const tlsServerName = optionalString(raw, 'tls-server-name', 'spec.cluster');
  const insecure = own(raw, 'insecure-skip-tls-verify');
  if (insecure !== undefined && typeof insecure !== 'boolean') throw new ExecInfoError(`${EXEC_INFO_ENV}: spec.cluster.insecure-skip-tls-verify must be a boolean`);
  // []byte in Go's JSON: standard base64.
  const caData = optionalString(raw, 'certificate-authority-data', 'spec.cluster');
  if (caData !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(caData)) throw new ExecInfoError(`${EXEC_INFO_ENV}: spec.cluster.certificate-authority-data is not base64`);
  return {
    server,
    ...(tlsServerName === undefined || tlsServerName === '' ? {} : { tlsServerName }),
    insecureSkipTlsVerify: insecure === true,
    ...(caData === undefined || caData === '' ? {} : { caPem: Buffer.from(caData, 'base64').toString('utf8') }),
  };
}

/**
 * What kubectl asked for. Without the variable (run by hand, or by a client that
 * predates it) the answer is v1, interactive when stdin is a terminal.
 * Throws ExecInfoError with one line that never quotes the input.
 */
export function parseExecInfo(text: string | undefined, stdinIsTerminal: boolean): ExecInfo {
  if (text === undefined || text === '') return { apiVersion: 'client.authentication.k8s.io/v1', interactive: stdinIsTerminal };
  if (Buffer.byteLength(text) > MAX_EXEC_INFO_BYTES) throw new ExecInfoError(`${EXEC_INFO_ENV} is larger than ${MAX_EXEC_INFO_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes part of the input; the input may carry cluster data.
    throw new ExecInfoError(`${EXEC_INFO_ENV} is not valid JSON`);
  }
  if (!isObject(parsed)) throw new ExecInfoError(`${EXEC_INFO_ENV} must be a JSON object`);
  const kind = own(parsed, 'kind');
  if (kind !== 'ExecCredential') throw new ExecInfoError(`${EXEC_INFO_ENV}: kind must be ExecCredential`);
  const apiVersion = own(parsed, 'apiVersion');
  if (!isExecCredentialVersion(apiVersion)) {
    const shown = typeof apiVersion === 'string' && apiVersion.length <= 100 ? JSON.stringify(apiVersion) : 'missing or not a string';
    throw new ExecInfoError(`${EXEC_INFO_ENV}: unsupported apiVersion ${shown} (supported: ${EXEC_CREDENTIAL_VERSIONS.join(', ')})`);
  }
  const spec = own(parsed, 'spec');
  if (spec !== undefined && spec !== null && !isObject(spec)) throw new ExecInfoError(`${EXEC_INFO_ENV}: spec must be an object`);
  const specObj = isObject(spec) ? spec : {};
  const interactive = own(specObj, 'interactive');
  if (interactive !== undefined && typeof interactive !== 'boolean') throw new ExecInfoError(`${EXEC_INFO_ENV}: spec.interactive must be a boolean`);
  const cluster = clusterOf(own(specObj, 'cluster'));
  return { apiVersion, interactive: interactive === true, ...(cluster === undefined ? {} : { cluster }) };
}

/** status of the answer; token, or certificate and key (PEM), or both. */
export interface ExecCredentialStatus {
  readonly token?: string;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  readonly expirationTimestamp?: Date;
}

/** metav1.Time's wire form: RFC 3339 in UTC, whole seconds. */
export function rfc3339(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The ExecCredential to print, in the apiVersion kubectl asked for (client-go refuses another). */
export function execCredential(apiVersion: ExecCredentialVersion, status: ExecCredentialStatus): string {
  const out = {
    apiVersion,
    kind: 'ExecCredential',
    status: {
      ...(status.expirationTimestamp === undefined ? {} : { expirationTimestamp: rfc3339(status.expirationTimestamp) }),
      ...(status.token === undefined ? {} : { token: status.token }),
      ...(status.clientCertificateData === undefined ? {} : { clientCertificateData: status.clientCertificateData }),
      ...(status.clientKeyData === undefined ? {} : { clientKeyData: status.clientKeyData }),
    },
  };
  return `${JSON.stringify(out)}\n`;
}
