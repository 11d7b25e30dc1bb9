// Splits argv into flag values the way spf13/pflag (kube-apiserver's flag library)
// does, so command lines written for kube-apiserver work unchanged: `--flag=value`
// and `--flag value`, booleans as `--flag` or `--flag=true|false`, shorthands as
// `-v 2`, `-v=2` or `-v2`, repeated list flags accumulating, `--` ending flags.
// It knows nothing of meanings; options.ts interprets the values.
import { FLAGS, NOT_YET_SUPPORTED, type FlagSpec } from './flags.js';

export class ArgvError extends Error {
  override readonly name = 'ArgvError';
}

export interface ParsedArgv {
  /** Values in command-line order per flag name (booleans as 'true'/'false'). */
  readonly values: ReadonlyMap<string, readonly string[]>;
  /** Arguments that are not flags. */
  readonly positional: readonly string[];
}

const BY_NAME = new Map(FLAGS.map((f) => [f.name, f]));
const BY_SHORTHAND = new Map(FLAGS.filter((f) => f.shorthand !== undefined).map((f) => [f.shorthand!, f]));

function unknown(name: string): ArgvError {
  if (NOT_YET_SUPPORTED.has(name)) return new ArgvError(`flag --${name} is not supported by kapi yet`);
  return new ArgvError(`unknown flag: --${name}`);
}

export function splitArgv(argv: readonly string[]): ParsedArgv {
  const values = new Map<string, string[]>();
  const positional: string[] = [];
  const set = (flag: FlagSpec, value: string) => values.set(flag.name, [...(values.get(flag.name) ?? []), value]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const key = eq === -1 ? body : body.slice(0, eq);
    let flag: FlagSpec | undefined;
    let inline: string | undefined = eq === -1 ? undefined : body.slice(eq + 1);
    if (long) {
      flag = BY_NAME.get(key);
      if (flag === undefined) throw unknown(key);
    } else {
      // A single dash takes one shorthand letter; what follows it is its value (-v2).
      flag = BY_SHORTHAND.get(body[0]!);
      if (flag === undefined) throw new ArgvError(`unknown shorthand flag: '${body[0]}' in ${arg}`);
      if (eq === -1 && body.length > 1) inline = body.slice(1);
      else if (eq !== 1 && eq !== -1) throw new ArgvError(`unknown shorthand flag: '${body[1]}' in ${arg}`);
    }
    if (flag.kind === 'bool') {
      // `--help false` is not a value for a boolean: pflag reads only `--help=false`.
      set(flag, inline ?? 'true');
      continue;
    }
    if (inline === undefined) {
      if (i + 1 >= argv.length) throw new ArgvError(`flag needs an argument: ${long ? `--${flag.name}` : `'${body[0]}' in ${arg}`}`);
      inline = argv[++i]!;
    }
    set(flag, inline);
  }
  return { values, positional };
}
