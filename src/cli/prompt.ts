// Reads one secret line from stdin: a token the user types when kubectl hands
// the plugin its terminal (spec.interactive). On a terminal the input is read in
// raw mode so it is not echoed; from a pipe it is a plain line. Bounded, so a
// stream without a newline cannot grow without end.
import { CredentialError } from './kubeconfig.js';

const MAX_LINE_BYTES = 64 * 1024;
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = /[\u0008\u007f]/;

export interface ReadSecretLineOptions {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean; setRawMode?(mode: boolean): unknown };
  /** Where the label goes: kubectl's stderr, which is the user's terminal. */
  readonly prompt: { write(text: string): unknown };
  readonly label: string;
}

export function readSecretLine(opts: ReadSecretLineOptions): Promise<string> {
  const { stdin } = opts;
  const raw = stdin.isTTY === true && typeof stdin.setRawMode === 'function';
  opts.prompt.write(opts.label);
  if (raw) stdin.setRawMode!(true);
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let line = '';
    const finish = (err: Error | undefined) => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
      if (raw) stdin.setRawMode!(false);
      stdin.pause();
      opts.prompt.write('\n');
      if (err === undefined) resolve(line);
      else reject(err);
    };
    const onData = (chunk: string | Buffer) => {
      for (const ch of String(chunk)) {
        if (ch === '\n' || ch === '\r') return finish(undefined);
        if (raw && ch === CTRL_C) return finish(new CredentialError('cancelled'));
        if (raw && ch === CTRL_D) return finish(line === '' ? new CredentialError('no token entered') : undefined);
        if (raw && BACKSPACE.test(ch)) {
          line = line.slice(0, -1);
          continue;
        }
        line += ch;
        if (Buffer.byteLength(line) > MAX_LINE_BYTES) return finish(new CredentialError(`the token entered is longer than ${MAX_LINE_BYTES} bytes`));
      }
    };
    const onEnd = () => finish(line === '' ? new CredentialError('no token entered') : undefined);
    const onError = (err: Error) => finish(new CredentialError(`reading stdin: ${err.message}`));
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}
