// `kapi credential`: a client-go exec credential plugin (kubeconfig
// `users[].user.exec`), so a kubeconfig can hold a command instead of a secret.
// bin/kapi.js dispatches here before the server's flags are parsed; nothing of
// the server is loaded. It reads KUBERNETES_EXEC_INFO (exec-info.ts), takes the
// credential from the one source its flags name, and prints one ExecCredential
// on stdout. Failures are one line on stderr and exit code 1; no secret is ever
// written to stderr.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { EXEC_INFO_ENV, ExecInfoError, execCredential, parseExecInfo, type ExecCredentialStatus } from './exec-info.js';
import { CredentialError, loadKubeconfig, readTextFile, type StaticCredentials } from './kubeconfig.js';
import { requestServiceAccountToken } from './token-request.js';
import { parseCredentialArgs, type CredentialSource } from './args.js';
import { readSecretLine } from './prompt.js';

export { parseCredentialArgs };

export const CREDENTIAL_HELP = `kapi credential: an exec credential plugin for kubectl and client-go.

Prints an ExecCredential (client.authentication.k8s.io/v1 or v1beta1, the version
kubectl asks for in KUBERNETES_EXEC_INFO) holding a token, or a client
certificate and key, with its expiry when it has one.

Usage:
  kapi credential [flags]

Sources (at most one):
  --token-file PATH              a static token (e.g. a line of --token-auth-file), read from PATH
  --client-certificate PATH      a PEM client certificate (with --client-key)
  --client-key PATH              the PEM private key of --client-certificate
  --kubeconfig PATH              the certificate or token of a kubeconfig's user
                                 (the current context, or --context)
  --kubeconfig PATH --service-account NAMESPACE/NAME
                                 a service-account token minted with the TokenRequest
                                 API using that kubeconfig's credentials; it expires
                                 when the server says (status.expirationTimestamp)
  (none)                         read a token from the terminal when kubectl allows
                                 interaction (interactiveMode IfAvailable or Always);
                                 fail with interactiveMode Never or without a terminal

Flags:
  --context NAME                 the kubeconfig context to use (default: its current-context)
  --expiration DURATION          lifetime asked of the TokenRequest (default 1h; the server's
                                 minimum is 10m)
  --audience AUDIENCE            an audience of the TokenRequest (repeatable; default the API's)
  -h, --help                     this text

Kubeconfig entry:
  users:
  - name: kapi-exec
    user:
      exec:
        apiVersion: client.authentication.k8s.io/v1
        command: kapi
        args: [credential, --token-file, /path/to/token]
        interactiveMode: Never
        provideClusterInfo: false
`;

/** The streams and environment the command uses; tests hand their own. */
export interface CredentialIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly now?: () => Date;
}

/** A bearer token goes into an HTTP header as is: visible ASCII, no spaces. */
function checkToken(token: string, where: string): string {
  if (token === '') throw new CredentialError(`${where}: the token is empty`);
  if (!/^[\x21-\x7e]+$/.test(token)) throw new CredentialError(`${where}: the token has whitespace, control or non-ASCII characters`);
  return token;
}

/** The certificate's expiry; refuses a pair that does not match or has expired. */
function checkCertificate(certPem: string, keyPem: string, where: string, now: Date): Date {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new CredentialError(`${where}: not a PEM certificate`);
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw new CredentialError(`${where}: the key is not a PEM private key`);
  }
  if (!matches) throw new CredentialError(`${where}: the key does not belong to the certificate`);
  const notAfter = new Date(cert.validTo);
  if (notAfter.getTime() <= now.getTime()) throw new CredentialError(`${where}: the certificate expired at ${notAfter.toISOString()}`);
  return notAfter;
}

/** What a kubeconfig user holds, passed on whole: kubectl would send both a certificate and a token too. */
function fromStatic(creds: StaticCredentials, where: string, now: Date): ExecCredentialStatus {
  const token = creds.token === undefined ? {} : { token: checkToken(creds.token, where) };
  if (creds.certPem !== undefined && creds.keyPem !== undefined) {
    const expirationTimestamp = checkCertificate(creds.certPem, creds.keyPem, where, now);
    return { ...token, clientCertificateData: creds.certPem, clientKeyData: creds.keyPem, expirationTimestamp };
  }
  if (creds.token === undefined) throw new CredentialError(`${where}: neither a client certificate nor a token`);
  return token;
}

async function credentialOf(source: CredentialSource, interactive: boolean, io: CredentialIo, now: Date): Promise<ExecCredentialStatus> {
  switch (source.kind) {
    case 'token-file':
      return { token: checkToken(readTextFile(source.path, '--token-file').trim(), `--token-file ${JSON.stringify(source.path)}`) };
    case 'client-certificate':
      return fromStatic(
        { certPem: readTextFile(source.certPath, '--client-certificate'), keyPem: readTextFile(source.keyPath, '--client-key') },
        `--client-certificate ${JSON.stringify(source.certPath)}`,
        now,
      );
    case 'kubeconfig':
      return fromStatic(loadKubeconfig(source.path, source.context).user, `--kubeconfig ${JSON.stringify(source.path)}`, now);
    case 'service-account': {
      const issued = await requestServiceAccountToken({
        target: loadKubeconfig(source.kubeconfig, source.context),
        namespace: source.namespace,
        name: source.name,
        expirationSeconds: source.expirationSeconds,
        audiences: source.audiences,
      });
      return { token: checkToken(issued.token, 'TokenRequest'), expirationTimestamp: issued.expirationTimestamp };
    }
    case 'prompt': {
      if (!interactive) {
        throw new CredentialError('no credential source given (--token-file, --client-certificate/--client-key, --kubeconfig) and kubectl does not allow interaction (interactiveMode Never, or stdin is not a terminal)');
      }
      return { token: checkToken(await readSecretLine({ stdin: io.stdin, prompt: io.stderr, label: 'Token: ' }), 'the token entered') };
    }
  }
}

/** Runs the command; answers the exit code. */
export async function runCredential(argv: readonly string[], io: CredentialIo): Promise<number> {
  try {
    const args = parseCredentialArgs(argv);
    if (args.help) {
      io.stdout.write(CREDENTIAL_HELP);
      return 0;
    }
    const info = parseExecInfo(io.env[EXEC_INFO_ENV], io.stdin.isTTY === true);
    const status = await credentialOf(args.source, info.interactive, io, (io.now ?? (() => new Date()))());
    io.stdout.write(execCredential(info.apiVersion, status));
    return 0;
  } catch (err) {
    // Known failures carry messages built from paths and server answers only. Anything
    // else is a bug: its message could quote input, so only its type is shown.
    const known = err instanceof CredentialError || err instanceof ExecInfoError;
    const message = known ? (err as Error).message : `unexpected ${err instanceof Error ? err.name : typeof err}`;
    io.stderr.write(`kapi credential: ${message.replace(/[\r\n]+/g, ' ')}\n`);
    return 1;
  }
}

/** bin/kapi.js's entry for `kapi credential …`. */
export async function main(argv: readonly string[]): Promise<void> {
  process.exitCode = await runCredential(argv, { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}
