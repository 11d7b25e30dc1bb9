// The disk half of option validation, run once at start after parseOptions: every
// file a flag names must be readable and hold what the flag says (a certificate,
// a key that matches it), so a wrong path stops the start with one line naming
// the flag instead of an OpenSSL error from deep inside the TLS setup.
import { AbacPolicyFileError, loadAbacPolicyFile } from '../../auth/authz/abac/policy.js';
import type { AbacPolicy } from '../../auth/authz/abac/convert.js';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseCertificateBundle } from '../../auth/pki/pem.js';
import { publicKeysFromPem } from '../../auth/serviceaccount/tokens.js';
import type { Options } from '../options.js';
import { OptionsError } from './options-error.js';
import { parseTokenFile, TokenFileError } from '../../auth/authn/token-file.js';
import type { UserInfo } from '../../schema/user.js';

/** The contents of the files the flags named, so nothing reads them twice. */
export interface ValidatedFiles {
  readonly tlsCertPem?: string;
  readonly tlsKeyPem?: string;
  readonly clientCaPem?: string;
  readonly etcdCaPem?: string;
  readonly etcdCertPem?: string;
  readonly etcdKeyPem?: string;
  readonly serviceAccountSigningKeyPem?: string;
  /** Public keys (or certificates, or private keys) that verify service-account tokens. */
  readonly serviceAccountKeyPem?: string;
  /** --oidc-ca-file's certificates. */
  readonly oidcCaPem?: string;
  /** --authorization-policy-file's ABAC policies. */
  readonly abacPolicies?: readonly AbacPolicy[];
  /** --token-auth-file's users by token. */
  readonly tokenAuthUsers?: ReadonlyMap<string, UserInfo>;
  /** --kubelet-client-certificate, --kubelet-client-key, --kubelet-certificate-authority. */
  readonly kubeletCertPem?: string;
  readonly kubeletKeyPem?: string;
  readonly kubeletCaPem?: string;
}

type Content = 'certificates' | 'key' | 'public keys';

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

async function load(opts: { flag: string; path: string | undefined; content: Content; problems: string[] }): Promise<string | undefined> {
  if (opts.path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(opts.path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    opts.problems.push(`--${opts.flag} ${JSON.stringify(opts.path)}: ${ERRNO_TEXT[code] ?? (err as Error).message}`);
    return undefined;
  }
  try {
    if (opts.content === 'certificates') parseCertificateBundle(text);
    else if (opts.content === 'key') createPrivateKey(text);
    else if (publicKeysFromPem(text).length === 0) throw new Error('none');
  } catch {
    const what = opts.content === 'key' ? 'private key' : opts.content === 'public keys' ? 'public key' : 'certificate';
    opts.problems.push(`--${opts.flag} ${JSON.stringify(opts.path)}: no PEM ${what} found`);
    return undefined;
  }
  return text;
}

/** --authorization-policy-file: readable and every line a policy, or kube's one error naming the line. */
async function loadAbacFile(path: string | undefined, problems: string[]): Promise<readonly AbacPolicy[] | undefined> {
  if (path === undefined) return undefined;
  try {
    return await loadAbacPolicyFile(path);
  } catch (err) {
    if (!(err instanceof AbacPolicyFileError)) throw err;
    problems.push(`--authorization-policy-file: ${err.message}`);
    return undefined;
  }
}

/** --token-auth-file: readable and well-formed, or one problem naming the flag and the line's fault. */
async function loadTokenFile(path: string | undefined, problems: string[]): Promise<ReadonlyMap<string, UserInfo> | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    problems.push(`--token-auth-file ${JSON.stringify(path)}: ${ERRNO_TEXT[code] ?? (err as Error).message}`);
    return undefined;
  }
  try {
    return parseTokenFile(text, path);
  } catch (err) {
    if (!(err instanceof TokenFileError)) throw err;
    problems.push(`--token-auth-file: ${err.message}`);
    return undefined;
  }
}

function keyMatches(certPem: string, keyPem: string): boolean {
  try {
    return new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
}

/** Throws OptionsError listing every unreadable or malformed file. */
export async function validateFiles(options: Options): Promise<ValidatedFiles> {
  // One list per file, joined in flag order: reads finish in any order, the message must not.
  const perFile: string[][] = Array.from({ length: 14 }, () => []);
  let nth = 0;
  const next = (): string[] => perFile[nth++]!;
  const [tlsCertPem, tlsKeyPem, clientCaPem, etcdCaPem, etcdCertPem, etcdKeyPem, saSigningPem, saKeyPem, tokenAuthUsers, oidcCaPem, kubeletCertPem, kubeletKeyPem, kubeletCaPem, abacPolicies] = await Promise.all([
    load({ flag: 'tls-cert-file', path: options.tlsCertFile, content: 'certificates', problems: next() }),
    load({ flag: 'tls-private-key-file', path: options.tlsPrivateKeyFile, content: 'key', problems: next() }),
    load({ flag: 'client-ca-file', path: options.clientCaFile, content: 'certificates', problems: next() }),
    load({ flag: 'etcd-cafile', path: options.etcd.caFile, content: 'certificates', problems: next() }),
    load({ flag: 'etcd-certfile', path: options.etcd.certFile, content: 'certificates', problems: next() }),
    load({ flag: 'etcd-keyfile', path: options.etcd.keyFile, content: 'key', problems: next() }),
    load({ flag: 'service-account-signing-key-file', path: options.serviceAccount.signingKeyFile, content: 'key', problems: next() }),
    load({ flag: 'service-account-key-file', path: options.serviceAccount.keyFile, content: 'public keys', problems: next() }),
    loadTokenFile(options.tokenAuthFile, next()),
    load({ flag: 'oidc-ca-file', path: options.oidc?.caFile, content: 'certificates', problems: next() }),
    load({ flag: 'kubelet-client-certificate', path: options.kubelet.clientCertFile, content: 'certificates', problems: next() }),
    load({ flag: 'kubelet-client-key', path: options.kubelet.clientKeyFile, content: 'key', problems: next() }),
    load({ flag: 'kubelet-certificate-authority', path: options.kubelet.caFile, content: 'certificates', problems: next() }),
    loadAbacFile(options.authorizationPolicyFile, next()),
  ]);
  const problems = perFile.flat();
  if (tlsCertPem !== undefined && tlsKeyPem !== undefined && !keyMatches(tlsCertPem, tlsKeyPem)) {
    problems.push(`--tls-private-key-file ${JSON.stringify(options.tlsPrivateKeyFile)} does not match --tls-cert-file ${JSON.stringify(options.tlsCertFile)}`);
  }
  if (etcdCertPem !== undefined && etcdKeyPem !== undefined && !keyMatches(etcdCertPem, etcdKeyPem)) {
    problems.push(`--etcd-keyfile ${JSON.stringify(options.etcd.keyFile)} does not match --etcd-certfile ${JSON.stringify(options.etcd.certFile)}`);
  }
  if (kubeletCertPem !== undefined && kubeletKeyPem !== undefined && !keyMatches(kubeletCertPem, kubeletKeyPem)) {
    problems.push(`--kubelet-client-key ${JSON.stringify(options.kubelet.clientKeyFile)} does not match --kubelet-client-certificate ${JSON.stringify(options.kubelet.clientCertFile)}`);
  }
  if (problems.length > 0) throw new OptionsError(problems);
  const files: { -readonly [K in keyof ValidatedFiles]: ValidatedFiles[K] } = {};
  if (tlsCertPem !== undefined) files.tlsCertPem = tlsCertPem;
  if (tlsKeyPem !== undefined) files.tlsKeyPem = tlsKeyPem;
  if (clientCaPem !== undefined) files.clientCaPem = clientCaPem;
  if (etcdCaPem !== undefined) files.etcdCaPem = etcdCaPem;
  if (etcdCertPem !== undefined) files.etcdCertPem = etcdCertPem;
  if (etcdKeyPem !== undefined) files.etcdKeyPem = etcdKeyPem;
  if (saSigningPem !== undefined) files.serviceAccountSigningKeyPem = saSigningPem;
  if (saKeyPem !== undefined) files.serviceAccountKeyPem = saKeyPem;
  if (tokenAuthUsers !== undefined) files.tokenAuthUsers = tokenAuthUsers;
  if (oidcCaPem !== undefined) files.oidcCaPem = oidcCaPem;
  if (kubeletCertPem !== undefined) files.kubeletCertPem = kubeletCertPem;
  if (kubeletKeyPem !== undefined) files.kubeletKeyPem = kubeletKeyPem;
  if (kubeletCaPem !== undefined) files.kubeletCaPem = kubeletCaPem;
  if (abacPolicies !== undefined) files.abacPolicies = abacPolicies;
  return files;
}
