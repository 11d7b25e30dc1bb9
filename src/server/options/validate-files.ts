// The disk half of option validation, run once at start after parseOptions: every
// file a flag names must be readable and hold what the flag says (a certificate,
// a key that matches it), so a wrong path stops the start with one line naming
// the flag instead of an OpenSSL error from deep inside the TLS setup.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseCertificateBundle } from '../../auth/pki/pem.js';
import type { Options } from '../options.js';
import { OptionsError } from './options-error.js';

/** The contents of the files the flags named, so nothing reads them twice. */
export interface ValidatedFiles {
  readonly tlsCertPem?: string;
  readonly tlsKeyPem?: string;
  readonly clientCaPem?: string;
  readonly etcdCaPem?: string;
  readonly etcdCertPem?: string;
  readonly etcdKeyPem?: string;
}

type Content = 'certificates' | 'key';

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
    else createPrivateKey(text);
  } catch {
    opts.problems.push(`--${opts.flag} ${JSON.stringify(opts.path)}: no PEM ${opts.content === 'key' ? 'private key' : 'certificate'} found`);
    return undefined;
  }
  return text;
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
  const problems: string[] = [];
  const [tlsCertPem, tlsKeyPem, clientCaPem, etcdCaPem, etcdCertPem, etcdKeyPem] = await Promise.all([
    load({ flag: 'tls-cert-file', path: options.tlsCertFile, content: 'certificates', problems }),
    load({ flag: 'tls-private-key-file', path: options.tlsPrivateKeyFile, content: 'key', problems }),
    load({ flag: 'client-ca-file', path: options.clientCaFile, content: 'certificates', problems }),
    load({ flag: 'etcd-cafile', path: options.etcd.caFile, content: 'certificates', problems }),
    load({ flag: 'etcd-certfile', path: options.etcd.certFile, content: 'certificates', problems }),
    load({ flag: 'etcd-keyfile', path: options.etcd.keyFile, content: 'key', problems }),
  ]);
  if (tlsCertPem !== undefined && tlsKeyPem !== undefined && !keyMatches(tlsCertPem, tlsKeyPem)) {
    problems.push(`--tls-private-key-file ${JSON.stringify(options.tlsPrivateKeyFile)} does not match --tls-cert-file ${JSON.stringify(options.tlsCertFile)}`);
  }
  if (etcdCertPem !== undefined && etcdKeyPem !== undefined && !keyMatches(etcdCertPem, etcdKeyPem)) {
    problems.push(`--etcd-keyfile ${JSON.stringify(options.etcd.keyFile)} does not match --etcd-certfile ${JSON.stringify(options.etcd.certFile)}`);
  }
  if (problems.length > 0) throw new OptionsError(problems);
  const files: { -readonly [K in keyof ValidatedFiles]: ValidatedFiles[K] } = {};
  if (tlsCertPem !== undefined) files.tlsCertPem = tlsCertPem;
  if (tlsKeyPem !== undefined) files.tlsKeyPem = tlsKeyPem;
  if (clientCaPem !== undefined) files.clientCaPem = clientCaPem;
  if (etcdCaPem !== undefined) files.etcdCaPem = etcdCaPem;
  if (etcdCertPem !== undefined) files.etcdCertPem = etcdCertPem;
  if (etcdKeyPem !== undefined) files.etcdKeyPem = etcdKeyPem;
  return files;
}
