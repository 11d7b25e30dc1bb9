// The flags of `kapi credential` (see CREDENTIAL_HELP in credential.ts): each as
// `--name value` or `--name=value`; a flag given twice, an unknown flag, a stray
// argument, or flags that name more than one source are refused with one line.
import { CredentialError } from './kubeconfig.js';

export type CredentialSource =
  | { readonly kind: 'token-file'; readonly path: string }
  | { readonly kind: 'client-certificate'; readonly certPath: string; readonly keyPath: string }
  | { readonly kind: 'kubeconfig'; readonly path: string; readonly context?: string }
  | {
      readonly kind: 'service-account';
      readonly kubeconfig: string;
      readonly context?: string;
      readonly namespace: string;
      readonly name: string;
      readonly expirationSeconds: number;
      readonly audiences: readonly string[];
    }
  /** No source: a token typed at the terminal, when kubectl allows interaction. */
  | { readonly kind: 'prompt' };

export interface CredentialArgs {
  readonly help: boolean;
  readonly source: CredentialSource;
}

const VALUE_FLAGS = ['token-file', 'client-certificate', 'client-key', 'kubeconfig', 'context', 'service-account', 'expiration', 'audience'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];
const REPEATABLE: ReadonlySet<ValueFlag> = new Set(['audience']);

const DEFAULT_EXPIRATION_SECONDS = 3600;
/** kube's DNS-1123 label (namespace) and subdomain (service account name). */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const UNIT_SECONDS: Readonly<Record<string, number>> = { h: 3600, m: 60, s: 1 };

function isValueFlag(name: string): name is ValueFlag {
  return (VALUE_FLAGS as readonly string[]).includes(name);
}

/** A Go duration of whole seconds (`1h`, `90m`, `1h30m`, `3600s`), as kubectl's --duration takes it. */
export function parseDuration(text: string): number {
  const m = /^(?:(\d{1,7})h)?(?:(\d{1,9})m)?(?:(\d{1,11})s)?$/.exec(text);
  if (text === '' || m === null) throw new CredentialError(`--expiration ${JSON.stringify(text.slice(0, 40))}: not a duration such as 1h, 90m or 3600s`);
  const seconds = Number(m[1] ?? 0) * UNIT_SECONDS.h! + Number(m[2] ?? 0) * UNIT_SECONDS.m! + Number(m[3] ?? 0);
  // TokenRequest's expirationSeconds is an int64; an int32 is already 68 years.
  if (seconds <= 0 || seconds > 2 ** 31 - 1) throw new CredentialError(`--expiration ${text}: must be between 1s and ${2 ** 31 - 1}s`);
  return seconds;
}

function serviceAccountOf(text: string): { namespace: string; name: string } {
  const slash = text.indexOf('/');
  const namespace = text.slice(0, slash);
  const name = text.slice(slash + 1);
  if (slash < 0 || !DNS1123_LABEL.test(namespace) || !DNS1123_SUBDOMAIN.test(name)) {
    throw new CredentialError('--service-account must be NAMESPACE/NAME (a namespace and a service account name)');
  }
  return { namespace, name };
}

function collect(argv: readonly string[]): { help: boolean; values: Map<ValueFlag, string[]> } {
  const values = new Map<ValueFlag, string[]>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new CredentialError(`unexpected argument ${JSON.stringify(arg.slice(0, 100))}; see kapi credential --help`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (!isValueFlag(name)) throw new CredentialError(`unknown flag --${name.slice(0, 100)}; see kapi credential --help`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i]!;
    else throw new CredentialError(`flag needs an argument: --${name}`);
    const seen = values.get(name) ?? [];
    if (seen.length > 0 && !REPEATABLE.has(name)) throw new CredentialError(`--${name} is given more than once`);
    values.set(name, [...seen, value]);
  }
  return { help, values };
}

export function parseCredentialArgs(argv: readonly string[]): CredentialArgs {
  const { help, values } = collect(argv);
  if (help) return { help, source: { kind: 'prompt' } };
  const one = (name: ValueFlag): string | undefined => {
    const v = values.get(name)?.[0];
    if (v === '') throw new CredentialError(`--${name} must not be empty`);
    return v;
  };
  const tokenFile = one('token-file');
  const cert = one('client-certificate');
  const key = one('client-key');
  const kubeconfig = one('kubeconfig');
  const context = one('context');
  const serviceAccount = one('service-account');
  const expiration = one('expiration');
  const audiences = values.get('audience') ?? [];
  if (audiences.some((a) => a === '')) throw new CredentialError('--audience must not be empty');

  const sources = [tokenFile !== undefined, cert !== undefined || key !== undefined, kubeconfig !== undefined].filter(Boolean).length;
  if (sources > 1) throw new CredentialError('give one source: --token-file, --client-certificate with --client-key, or --kubeconfig');
  if ((cert === undefined) !== (key === undefined)) throw new CredentialError('--client-certificate and --client-key go together');
  if (context !== undefined && kubeconfig === undefined) throw new CredentialError('--context needs --kubeconfig');
  if (serviceAccount === undefined && (expiration !== undefined || audiences.length > 0)) {
    throw new CredentialError('--expiration and --audience need --service-account');
  }
  if (serviceAccount !== undefined && kubeconfig === undefined) throw new CredentialError('--service-account needs --kubeconfig (whose credentials may create the token)');

  const ctx = context === undefined ? {} : { context };
  if (tokenFile !== undefined) return { help, source: { kind: 'token-file', path: tokenFile } };
  if (cert !== undefined && key !== undefined) return { help, source: { kind: 'client-certificate', certPath: cert, keyPath: key } };
  if (kubeconfig !== undefined && serviceAccount !== undefined) {
    const expirationSeconds = expiration === undefined ? DEFAULT_EXPIRATION_SECONDS : parseDuration(expiration);
    return { help, source: { kind: 'service-account', kubeconfig, ...ctx, ...serviceAccountOf(serviceAccount), expirationSeconds, audiences } };
  }
  if (kubeconfig !== undefined) return { help, source: { kind: 'kubeconfig', path: kubeconfig, ...ctx } };
  return { help, source: { kind: 'prompt' } };
}
