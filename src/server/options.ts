// Command-line options: kube-apiserver's flags (options/flags.ts) turned into one
// typed, validated Options object that main.ts builds everything from. Parsing is
// pure (argv and the working directory in, Options out); file checks that touch
// the disk are a separate step (options/validate-files.ts). Every problem is one
// line naming the flag; main prints each as `kapi: <line>` and exits 1.
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_AUTHORIZATION_MODES, isAuthorizationMode, type AuthorizationMode } from '../auth/authz/create.js';
import { ArgvError, splitArgv } from './options/argv.js';
import { parseGoDuration } from '../schema/go-duration.js';
import { OptionsError } from './options/options-error.js';
import { controllersFlagProblems, DEFAULT_CONTROLLERS } from './controller-names.js';
import { parseIpRange, parsePortRange, type IpRange, type PortRange } from '../apis/core/v1/service-allocation.js';
import { DEFAULT_PREFERRED_ADDRESS_TYPES } from '../apis/core/v1/kubelet-client.js';

export { helpText } from './options/flags.js';
export { OptionsError } from './options/options-error.js';

export type StorageBackend = 'sqlite' | 'etcd3';
export type SqliteSynchronous = 'FULL' | 'NORMAL';

export interface EtcdOptions {
  readonly servers: readonly string[];
  readonly prefix: string;
  readonly caFile: string | undefined;
  readonly certFile: string | undefined;
  readonly keyFile: string | undefined;
  /** 0 disables compaction requests. */
  readonly compactionIntervalMs: number;
}

export interface Options {
  readonly securePort: number;
  readonly bindAddress: string;
  /** Absolute. */
  readonly dataDir: string;
  /** Absolute; <dataDir>/pki unless --cert-dir was given. */
  readonly certDir: string;
  /** Where the admin kubeconfig is written at every start. */
  readonly adminKubeconfigPath: string;
  readonly storageBackend: StorageBackend;
  readonly sqliteSynchronous: SqliteSynchronous;
  readonly etcd: EtcdOptions;
  /** Both or neither (validated). */
  readonly tlsCertFile: string | undefined;
  readonly tlsPrivateKeyFile: string | undefined;
  /** undefined: trust the generated CA for client certificates. */
  readonly clientCaFile: string | undefined;
  /** --token-auth-file: static bearer tokens (auth/authn/token-file.ts); undefined: none. */
  readonly tokenAuthFile: string | undefined;
  readonly kubelet: KubeletOptions;
  /** --anonymous-auth: requests without credentials run as system:anonymous (true) or are 401 (false). */
  readonly anonymousAuth: boolean;
  /** --enable-bootstrap-token-auth: `<id>.<secret>` tokens from kube-system's bootstrap token Secrets. */
  readonly enableBootstrapTokenAuth: boolean;
  /** --oidc-*: undefined without --oidc-issuer-url. */
  readonly oidc: OidcFlags | undefined;
  /** --authentication-config (absolute; read and checked at start by auth/authn/authentication-config-file.ts); undefined: none. */
  readonly authenticationConfigFile: string | undefined;
  /** --anonymous-auth was given (kube refuses it beside the file's `anonymous` section). */
  readonly anonymousAuthFlagSet: boolean;
  /** --controllers, checked (server/controller-names.ts decides what each entry turns on). */
  readonly controllers: readonly string[];
  /** --leader-elect: on etcd, run the controllers only while holding kube-system/kube-controller-manager. */
  readonly leaderElect: boolean;
  readonly authorizationModes: readonly AuthorizationMode[];
  /** --authorization-policy-file: ABAC's policy (one JSON object a line); required with and only with mode ABAC. */
  readonly authorizationPolicyFile: string | undefined;
  /** --authorization-webhook-*: the Webhook mode's kubeconfig, SubjectAccessReview version and cache TTLs. */
  readonly authorizationWebhook: AuthorizationWebhookOptions;
  /** --authorization-config: an AuthorizationConfiguration file instead of the mode and webhook flags. */
  readonly authorizationConfigFile: string | undefined;
  readonly requestTimeoutMs: number;
  readonly minRequestTimeoutSeconds: number;
  /** --watch-cache and its kapi-only window flags: lists and watches served from memory (storage/cacher/). */
  readonly watchCache: WatchCacheOptions;
  /**
   * --shutdown-delay-duration: after SIGTERM, /readyz fails but every request is
   * still served for this long (so load balancers stop sending traffic) before
   * the server drains and closes. 0: drain at once.
   */
  readonly shutdownDelayMs: number;
  /** The IP in the endpoints of default/kubernetes; undefined: none found (no endpoints are written). */
  readonly advertiseAddress: string | undefined;
  readonly serviceClusterIPRange: IpRange;
  readonly serviceNodePortRange: PortRange;
  readonly serviceAccount: ServiceAccountOptions;
  /**
   * kube's APIResponseCompression feature gate (beta, on by default since 1.16):
   * resource answers over 128 KiB are gzipped for clients that ask. No flag sets it
   * yet; --feature-gates will.
   */
  readonly responseCompression: boolean;
  /** klog's -v. */
  readonly verbosity: number;
  /** --help: print helpText() and exit 0; nothing else was validated. */
  readonly help: boolean;
}

export interface ServiceAccountOptions {
  readonly issuer: string;
  /** undefined: <cert-dir>/sa.key, generated on first start. */
  readonly signingKeyFile: string | undefined;
  readonly keyFile: string | undefined;
  /** Empty: the issuer. */
  readonly apiAudiences: readonly string[];
  /** --service-account-lookup: legacy tokens are checked against their Secret and account (bound tokens always are). */
  readonly lookup: boolean;
}

export interface ParseEnvironment {
  /** Relative paths on the command line are resolved against it. */
  readonly cwd: string;
  /** The host's interfaces, for the default --advertise-address (os.networkInterfaces). */
  readonly interfaces?: () => ReturnType<typeof networkInterfaces>;
}

const STORAGE_BACKENDS: readonly StorageBackend[] = ['sqlite', 'etcd3'];
const SQLITE_SYNCHRONOUS: readonly SqliteSynchronous[] = ['FULL', 'NORMAL'];

/** Reads typed flag values, recording one problem per bad value and falling back to the default. */
/** The --oidc-* flags, checked as kube-apiserver checks them. */
export interface OidcFlags {
  readonly issuerUrl: string;
  readonly clientId: string;
  readonly usernameClaim: string;
  readonly usernamePrefix: string | undefined;
  readonly groupsClaim: string | undefined;
  readonly groupsPrefix: string;
  readonly caFile: string | undefined;
  readonly requiredClaims: ReadonlyMap<string, string>;
  readonly signingAlgs: readonly string[];
}

const OIDC_SIGNING_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

function controllersOption(read: Reader): readonly string[] {
  const list = read.list('controllers', [...DEFAULT_CONTROLLERS]);
  read.problems.push(...controllersFlagProblems(list));
  return list;
}

/**
 * --oidc-* unless --authentication-config is given: kube's validateOIDCOptions
 * then reports only that the two are exclusive (any --oidc-* flag counts).
 */
function oidcUnlessAuthenticationConfig(read: Reader, cwd: string): OidcFlags | undefined {
  if (read.string('authentication-config', '') === '') return oidcOptions(read, cwd);
  const oidcFlags = ['oidc-issuer-url', 'oidc-client-id', 'oidc-username-claim', 'oidc-username-prefix', 'oidc-groups-claim', 'oidc-groups-prefix', 'oidc-ca-file', 'oidc-required-claim', 'oidc-signing-algs'];
  if (oidcFlags.some((f) => read.has(f))) read.problems.push('authentication-config file and oidc-* flags are mutually exclusive');
  return undefined;
}

function oidcOptions(read: Reader, cwd: string): OidcFlags | undefined {
  const issuerUrl = read.string('oidc-issuer-url', '');
  const others = ['oidc-client-id', 'oidc-username-claim', 'oidc-username-prefix', 'oidc-groups-claim', 'oidc-groups-prefix', 'oidc-ca-file', 'oidc-required-claim', 'oidc-signing-algs'];
  if (issuerUrl === '') {
    const given = others.filter((f) => read.has(f));
    if (given.length > 0) read.problems.push(`--${given[0]} requires --oidc-issuer-url`);
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(issuerUrl);
  } catch {
    read.problems.push(`--oidc-issuer-url ${JSON.stringify(issuerUrl)} is not a valid URL`);
  }
  if (url !== undefined && url.protocol !== 'https:') read.problems.push(`--oidc-issuer-url ${JSON.stringify(issuerUrl)}: only the https scheme is accepted`);
  const clientId = read.string('oidc-client-id', '');
  if (clientId === '') read.problems.push('--oidc-client-id must be set when --oidc-issuer-url is set');
  const signingAlgs = read.list('oidc-signing-algs', ['RS256']);
  for (const alg of signingAlgs) if (!OIDC_SIGNING_ALGS.includes(alg)) read.problems.push(`--oidc-signing-algs: unsupported signing algorithm ${JSON.stringify(alg)}`);
  const requiredClaims = new Map<string, string>();
  for (const pair of read.list('oidc-required-claim', [])) {
    const at = pair.indexOf('=');
    if (at <= 0) read.problems.push(`--oidc-required-claim ${JSON.stringify(pair)}: must be key=value`);
    else requiredClaims.set(pair.slice(0, at), pair.slice(at + 1));
  }
  const prefix = read.string('oidc-username-prefix', '');
  const groupsClaim = read.string('oidc-groups-claim', '');
  return {
    issuerUrl,
    clientId,
    usernameClaim: read.string('oidc-username-claim', 'sub'),
    usernamePrefix: prefix === '' ? undefined : prefix,
    groupsClaim: groupsClaim === '' ? undefined : groupsClaim,
    groupsPrefix: read.string('oidc-groups-prefix', ''),
    caFile: read.optionalPath('oidc-ca-file', cwd),
    requiredClaims,
    signingAlgs,
  };
}

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** Scalar flags: the last occurrence wins, as in pflag. */
  string(name: string, fallback: string): string {
    const all = this.values.get(name);
    return all === undefined ? fallback : all[all.length - 1]!;
  }

  optionalPath(name: string, cwd: string): string | undefined {
    const value = this.string(name, '');
    return value === '' ? undefined : resolve(cwd, value);
  }

  list(name: string, fallback: readonly string[]): string[] {
    const all = this.values.get(name);
    if (all === undefined) return [...fallback];
    return all.flatMap((v) => v.split(',')).filter((v) => v !== '');
  }

  int(name: string, fallback: number): number {
    const text = this.string(name, String(fallback));
    if (!/^[+-]?\d+$/.test(text)) {
      this.problems.push(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: not an integer`);
      return fallback;
    }
    return Number(text);
  }

  bool(name: string, fallback = false): boolean {
    const text = this.string(name, String(fallback));
    if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(text)) return true;
    if (['false', '0', 'f', 'F', 'FALSE', 'False'].includes(text)) return false;
    this.problems.push(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: not a boolean`);
    return false;
  }

  durationMs(name: string, fallback: string): number {
    const text = this.string(name, fallback);
    try {
      return parseGoDuration(text);
    } catch (err) {
      this.problems.push(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: ${(err as Error).message}`);
      return parseGoDuration(fallback);
    }
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const text = this.string(name, fallback);
    if ((allowed as readonly string[]).includes(text)) return text as T;
    this.problems.push(`--${name} ${JSON.stringify(text)} invalid, allowed values: ${allowed.join(', ')}`);
    return fallback;
  }
}

function authorizationModes(read: Reader): AuthorizationMode[] {
  // kapi's departure: kube-apiserver's default is AlwaysAllow; kapi starts as kubeadm clusters do.
  const modes = read.list('authorization-mode', [...DEFAULT_AUTHORIZATION_MODES]);
  // kube-apiserver's BuiltInAuthorizationOptions.Validate wording.
  if (modes.length === 0) read.problems.push('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  const valid: AuthorizationMode[] = [];
  for (const mode of modes) {
    if (seen.has(mode)) read.problems.push(`authorization-mode ${JSON.stringify(mode)} has mode specified more than once`);
    seen.add(mode);
    if (isAuthorizationMode(mode)) valid.push(mode);
    else read.problems.push(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
  }
  return valid;
}

export interface AuthorizationWebhookOptions {
  readonly configFile: string | undefined;
  readonly version: 'v1' | 'v1beta1';
  readonly authorizedTtlMs: number;
  readonly unauthorizedTtlMs: number;
}

/** kube-apiserver's BuiltInAuthorizationOptions.Validate rules for the webhook flags. */
function authorizationWebhook(read: Reader, cwd: string): AuthorizationWebhookOptions {
  const configFile = read.optionalPath('authorization-webhook-config-file', cwd);
  const webhook = read.list('authorization-mode', [...DEFAULT_AUTHORIZATION_MODES]).includes('Webhook');
  if (webhook && configFile === undefined) read.problems.push("authorization-mode Webhook's authorization config file not passed");
  if (!webhook && configFile !== undefined) read.problems.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  const version = read.string('authorization-webhook-version', 'v1beta1');
  if (version !== 'v1' && version !== 'v1beta1') read.problems.push(`--authorization-webhook-version must be v1 or v1beta1, got ${JSON.stringify(version)}`);
  return {
    configFile,
    version: version === 'v1' ? 'v1' : 'v1beta1',
    authorizedTtlMs: read.durationMs('authorization-webhook-cache-authorized-ttl', '5m'),
    unauthorizedTtlMs: read.durationMs('authorization-webhook-cache-unauthorized-ttl', '30s'),
  };
}

const LEGACY_AUTHORIZATION_FLAGS = ['authorization-mode', 'authorization-webhook-config-file', 'authorization-webhook-version', 'authorization-webhook-cache-authorized-ttl', 'authorization-webhook-cache-unauthorized-ttl'];

/** --authorization-config replaces the mode and webhook flags (kube refuses them together). */
function authorizationConfigFile(read: Reader, cwd: string): string | undefined {
  const file = read.optionalPath('authorization-config', cwd);
  if (file !== undefined && LEGACY_AUTHORIZATION_FLAGS.some((f) => read.has(f))) {
    read.problems.push('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
  }
  return file;
}

/** kube-apiserver's BuiltInAuthorizationOptions.Validate rules for the ABAC file. */
function authorizationPolicyFile(read: Reader, cwd: string): string | undefined {
  const file = read.optionalPath('authorization-policy-file', cwd);
  const abac = read.list('authorization-mode', [...DEFAULT_AUTHORIZATION_MODES]).includes('ABAC');
  if (abac && file === undefined) read.problems.push("authorization-mode ABAC's authorization policy file not passed");
  if (!abac && file !== undefined) read.problems.push('cannot specify --authorization-policy-file without mode ABAC');
  return file;
}

function etcdOptions(read: Reader, opts: { cwd: string; backend: StorageBackend }): EtcdOptions {
  const servers = read.list('etcd-servers', []);
  if (opts.backend === 'etcd3' && servers.length === 0) read.problems.push('--etcd-servers must be specified');
  for (const server of servers) {
    if (!/^https?:\/\/[^/]+/.test(server)) read.problems.push(`--etcd-servers ${JSON.stringify(server)} is not a URL like https://host:2379`);
  }
  const certFile = read.optionalPath('etcd-certfile', opts.cwd);
  const keyFile = read.optionalPath('etcd-keyfile', opts.cwd);
  if ((certFile === undefined) !== (keyFile === undefined)) read.problems.push('--etcd-certfile and --etcd-keyfile must be given together');
  const compactionIntervalMs = read.durationMs('etcd-compaction-interval', '5m');
  if (compactionIntervalMs < 0) read.problems.push('--etcd-compaction-interval can not be negative');
  return {
    servers,
    prefix: read.string('etcd-prefix', '/registry'),
    caFile: read.optionalPath('etcd-cafile', opts.cwd),
    certFile,
    keyFile,
    compactionIntervalMs,
  };
}

/** kube's DefaultAdvertiseAddress: the bind address unless it is loopback or unspecified, else a host interface. */
function advertiseAddressOf(read: Reader, bindAddress: string, interfaces: ParseEnvironment['interfaces']): string | undefined {
  const text = read.string('advertise-address', '');
  if (text !== '') {
    if (isIP(text) === 0) read.problems.push(`invalid argument ${JSON.stringify(text)} for "--advertise-address" flag: not an IP address`);
    return text;
  }
  const loopbackOrAny = bindAddress === '0.0.0.0' || bindAddress === '::' || bindAddress.startsWith('127.') || bindAddress === '::1';
  if (!loopbackOrAny) return bindAddress;
  for (const list of Object.values(interfaces?.() ?? {})) {
    for (const iface of list ?? []) if (iface.family === 'IPv4' && !iface.internal) return iface.address;
  }
  return undefined;
}

/** --kubelet-*: how pods/log reaches the kubelets (apis/core/v1/kubelet-client.ts). */
export interface KubeletOptions {
  readonly clientCertFile: string | undefined;
  readonly clientKeyFile: string | undefined;
  readonly caFile: string | undefined;
  readonly preferredAddressTypes: readonly string[];
}

function kubeletOptions(read: Reader, cwd: string): KubeletOptions {
  const clientCertFile = read.optionalPath('kubelet-client-certificate', cwd);
  const clientKeyFile = read.optionalPath('kubelet-client-key', cwd);
  if ((clientCertFile === undefined) !== (clientKeyFile === undefined)) read.problems.push('--kubelet-client-certificate and --kubelet-client-key must be given together');
  return {
    clientCertFile,
    clientKeyFile,
    caFile: read.optionalPath('kubelet-certificate-authority', cwd),
    preferredAddressTypes: read.list('kubelet-preferred-address-types', [...DEFAULT_PREFERRED_ADDRESS_TYPES]),
  };
}

export interface WatchCacheOptions {
  readonly enabled: boolean;
  readonly historyWindowMs: number;
  readonly maxEvents: number;
}

function watchCacheOptions(read: Reader): WatchCacheOptions {
  const historyWindowMs = read.durationMs('watch-cache-history-window', '5m');
  if (historyWindowMs <= 0) read.problems.push('--watch-cache-history-window must be positive');
  const maxEvents = read.int('watch-cache-max-events', 100_000);
  if (maxEvents <= 0) read.problems.push('--watch-cache-max-events must be positive');
  return { enabled: read.bool('watch-cache', true), historyWindowMs, maxEvents };
}

function serviceRanges(read: Reader): { serviceClusterIPRange: IpRange; serviceNodePortRange: PortRange } {
  const ipText = read.string('service-cluster-ip-range', '10.0.0.0/24');
  const portText = read.string('service-node-port-range', '30000-32767');
  let serviceClusterIPRange = parseIpRange('10.0.0.0/24');
  let serviceNodePortRange = parsePortRange('30000-32767');
  try {
    serviceClusterIPRange = parseIpRange(ipText);
  } catch (err) {
    read.problems.push(`invalid argument ${JSON.stringify(ipText)} for "--service-cluster-ip-range" flag: ${(err as Error).message}`);
  }
  try {
    serviceNodePortRange = parsePortRange(portText);
  } catch (err) {
    read.problems.push(`invalid argument ${JSON.stringify(portText)} for "--service-node-port-range" flag: ${(err as Error).message}`);
  }
  return { serviceClusterIPRange, serviceNodePortRange };
}

function serviceAccountOptions(read: Reader, cwd: string): ServiceAccountOptions {
  const issuer = read.string('service-account-issuer', 'https://kubernetes.default.svc.cluster.local');
  // kube: the issuer is a URL or any string without ':'.
  if (issuer === '' || (issuer.includes(':') && !URL.canParse(issuer))) {
    read.problems.push(`--service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`);
  }
  return {
    issuer,
    signingKeyFile: read.optionalPath('service-account-signing-key-file', cwd),
    keyFile: read.optionalPath('service-account-key-file', cwd),
    apiAudiences: read.list('api-audiences', []),
    lookup: read.bool('service-account-lookup', true),
  };
}

function servingOptions(read: Reader): { securePort: number; bindAddress: string } {
  const securePort = read.int('secure-port', 6443);
  if (securePort < 1 || securePort > 65535) {
    read.problems.push(`--secure-port ${securePort} must be between 1 and 65535, inclusive. It cannot be turned off with 0`);
  }
  // kube: blank means every interface.
  const bindText = read.string('bind-address', '127.0.0.1');
  const bindAddress = bindText === '' ? '0.0.0.0' : bindText;
  if (isIP(bindAddress) === 0) read.problems.push(`invalid argument ${JSON.stringify(bindText)} for "--bind-address" flag: not an IP address`);
  return { securePort, bindAddress };
}

/**
 * Throws OptionsError: at once for an unknown flag (nothing after it can be trusted),
 * otherwise with every value problem found.
 */
export function parseOptions(argv: readonly string[], env: ParseEnvironment = { cwd: process.cwd() }): Options {
  let parsed;
  try {
    parsed = splitArgv(argv);
  } catch (err) {
    if (err instanceof ArgvError) throw new OptionsError([err.message]);
    throw err;
  }
  const read = new Reader(parsed.values);
  if (parsed.positional.length > 0) read.problems.push(`kapi does not take any arguments, got ${JSON.stringify(parsed.positional)}`);
  const help = read.bool('help');

  const dataDir = resolve(env.cwd, read.string('data-dir', './data'));
  const storageBackend = read.oneOf('storage-backend', STORAGE_BACKENDS, 'sqlite');
  const tlsCertFile = read.optionalPath('tls-cert-file', env.cwd);
  const tlsPrivateKeyFile = read.optionalPath('tls-private-key-file', env.cwd);
  if ((tlsCertFile === undefined) !== (tlsPrivateKeyFile === undefined)) {
    read.problems.push('--tls-cert-file and --tls-private-key-file must be given together');
  }
  const minRequestTimeoutSeconds = read.int('min-request-timeout', 1800);
  if (minRequestTimeoutSeconds < 0) read.problems.push('--min-request-timeout can not be negative value');
  const requestTimeoutMs = read.durationMs('request-timeout', '1m');
  if (requestTimeoutMs < 0) read.problems.push('--request-timeout can not be negative value');
  const shutdownDelayMs = read.durationMs('shutdown-delay-duration', '0s');
  // kube-apiserver's ServerRunOptions.Validate wording.
  if (shutdownDelayMs < 0) read.problems.push('--shutdown-delay-duration can not be negative value');
  const verbosity = read.int('v', 0);
  if (verbosity < 0) read.problems.push(`-v ${verbosity} must be a non-negative integer`);

  const serving = servingOptions(read);
  const options: Options = {
    ...serving,
    advertiseAddress: advertiseAddressOf(read, serving.bindAddress, env.interfaces ?? networkInterfaces),
    ...serviceRanges(read),
    serviceAccount: serviceAccountOptions(read, env.cwd),
    dataDir,
    certDir: read.has('cert-dir') ? resolve(env.cwd, read.string('cert-dir', '')) : resolve(dataDir, 'pki'),
    adminKubeconfigPath: resolve(dataDir, 'admin.kubeconfig'),
    storageBackend,
    sqliteSynchronous: read.oneOf('sqlite-synchronous', SQLITE_SYNCHRONOUS, 'FULL'),
    etcd: etcdOptions(read, { cwd: env.cwd, backend: storageBackend }),
    tlsCertFile,
    tlsPrivateKeyFile,
    clientCaFile: read.optionalPath('client-ca-file', env.cwd),
    tokenAuthFile: read.optionalPath('token-auth-file', env.cwd),
    kubelet: kubeletOptions(read, env.cwd),
    anonymousAuth: read.bool('anonymous-auth', true),
    enableBootstrapTokenAuth: read.bool('enable-bootstrap-token-auth'),
    controllers: controllersOption(read),
    leaderElect: read.bool('leader-elect', true),
    oidc: oidcUnlessAuthenticationConfig(read, env.cwd),
    authenticationConfigFile: read.optionalPath('authentication-config', env.cwd),
    anonymousAuthFlagSet: read.has('anonymous-auth'),
    authorizationModes: authorizationModes(read),
    authorizationPolicyFile: authorizationPolicyFile(read, env.cwd),
    authorizationWebhook: authorizationWebhook(read, env.cwd),
    authorizationConfigFile: authorizationConfigFile(read, env.cwd),
    requestTimeoutMs,
    minRequestTimeoutSeconds,
    watchCache: watchCacheOptions(read),
    shutdownDelayMs,
    // APIResponseCompression: --feature-gates (being added) sets this one value.
    responseCompression: true,
    verbosity,
    help,
  };
  // --help answers even a command line with bad values, as cobra does.
  if (read.problems.length > 0 && !help) throw new OptionsError(read.problems);
  return options;
}
