// --authorization-policy-file, read once at start for --authorization-mode=ABAC:
// one Policy per line (blank lines and `#` comments skipped), as kube's
// abac.NewFromFile reads it with a bufio.Scanner. The first line that does not
// decode stops the start with kube's text naming the file, the line number and the
// line itself; the policies then serve every request through abac.ts, which is
// where an ABAC decision is made.
import { readFile } from 'node:fs/promises';
import type { AbacPolicy } from './convert.js';
import { decodePolicyLine, PolicyDecodeError, trimGoSpaceStart } from './decode.js';

export type { AbacPolicy } from './convert.js';

/** The file does not load; the message is kube-apiserver's start error. */
export class AbacPolicyFileError extends Error {
  override readonly name = 'AbacPolicyFileError';
}

export interface ParseAbacPolicyOptions {
  /** kube's klog warning when any line was unversioned (v0); called at most once. */
  readonly warn?: (message: string) => void;
}

/**
 * bufio.MaxScanTokenSize: the scanner's buffer never grows past 64 KiB, so a line
 * (with its `\r`) of that many bytes or more ends the scan with ErrTooLong.
 */
const MAX_LINE_BYTES = 64 * 1024 - 1;

/** Go's strings.TrimSpace; JS's trim() differs (it trims U+FEFF and keeps U+0085). */
function isBlankOrComment(line: string): boolean {
  const start = trimGoSpaceStart(line);
  return start === '' || start.startsWith('#');
}

/**
 * The policies of a policy file's text, in file order (the authorizer allows on
 * the first match, so order never changes a decision, only rulesFor's listing).
 * Throws AbacPolicyFileError whose message is kube's:
 * `error reading policy file <file>, line <n>: <line>: <decoder's error>`.
 */
export function parseAbacPolicyFile(text: string, fileName: string, opts: ParseAbacPolicyOptions = {}): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  let unversioned = 0;
  // bufio.ScanLines: lines end at \n; a final line needs none, and a trailing \r is dropped.
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    // Lines before this one have been read and decoded, exactly as the scanner had.
    if (raw.length > MAX_LINE_BYTES / 3 && Buffer.byteLength(raw, 'utf8') > MAX_LINE_BYTES) {
      throw new AbacPolicyFileError(`error reading policy file ${fileName}: bufio.Scanner: token too long`);
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (isBlankOrComment(line)) continue;
    try {
      const decoded = decodePolicyLine(line);
      if (decoded.unversioned) unversioned++;
      policies.push(decoded.policy);
    } catch (err) {
      if (err instanceof PolicyDecodeError) throw new AbacPolicyFileError(`error reading policy file ${fileName}, line ${i + 1}: ${line}: ${err.message}`);
      throw err;
    }
  }
  if (unversioned > 0) {
    opts.warn?.(`Policy file ${fileName} contained unversioned rules. See docs/admin/authorization.md#abac-mode for ABAC file format details.`);
  }
  return policies;
}

/** Go's syscall error texts for what opening a file commonly meets. */
const OPEN_ERRORS: ReadonlyMap<string, string> = new Map([
  ['ENOENT', 'no such file or directory'],
  ['EACCES', 'permission denied'],
  ['ENOTDIR', 'not a directory'],
  ['ELOOP', 'too many levels of symbolic links'],
]);

/**
 * Reads and parses the file at `path` (kube's NewFromFile). A file that cannot be
 * opened is os.Open's bare error (`open <path>: no such file or directory`); a
 * directory opens in Go and fails at the first read, inside kube's wrapper.
 */
export async function loadAbacPolicyFile(path: string, opts: ParseAbacPolicyOptions = {}): Promise<AbacPolicy[]> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (code === 'EISDIR') throw new AbacPolicyFileError(`error reading policy file ${path}: read ${path}: is a directory`);
    const why = OPEN_ERRORS.get(code);
    throw new AbacPolicyFileError(`open ${path}: ${why ?? (err as Error).message}`);
  }
  return parseAbacPolicyFile(data.toString('utf8'), path, opts);
}
