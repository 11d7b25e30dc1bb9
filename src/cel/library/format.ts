// `string.format(list)` from cel-go's ext.Strings: %s %d %f %e %b %o %x %X and
// %%, with an optional precision (`%.3f`). Errors name the clause that failed,
// like cel-go ("error during formatting: ...").
import { celError, isUint, typeName } from '../values.js';

const CLAUSE = /%(?:\.(\d+))?([sdfeboxX%])?/g;

export function formatString(template: string, args: readonly unknown[]): string {
  let next = 0;
  return template.replace(CLAUSE, (_m, precision: string | undefined, verb: string | undefined) => {
    if (verb === '%') return '%';
    if (verb === undefined) throw formatError('unrecognized formatting clause');
    if (next >= args.length) throw formatError(`index ${next} out of range`);
    const arg = args[next++];
    return formatClause(verb, precision === undefined ? undefined : Number(precision), arg);
  });
}

function formatError(message: string): Error {
  return celError(`error during formatting: ${message}`);
}

function formatClause(verb: string, precision: number | undefined, arg: unknown): string {
  switch (verb) {
    case 's':
      return formatPlain(arg);
    case 'd':
      if (typeof arg === 'bigint') return arg.toString();
      if (isUint(arg)) return arg.value.toString();
      if (typeof arg === 'number' && !Number.isFinite(arg)) return formatNonFinite(arg);
      throw formatError(`decimal clause can only be used on integers, was given ${typeName(arg)}`);
    case 'f':
      return fixed(toDouble(arg, 'fixed-point'), precision ?? 6);
    case 'e':
      return scientific(toDouble(arg, 'scientific'), precision ?? 6);
    case 'b':
      if (typeof arg === 'boolean') return arg ? '1' : '0';
      return radix(arg, 2, 'binary');
    case 'o':
      return radix(arg, 8, 'octal');
    default:
      return verb === 'x' ? hex(arg) : hex(arg).toUpperCase();
  }
}

function toDouble(arg: unknown, clause: string): number {
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'bigint') return Number(arg);
  if (isUint(arg)) return Number(arg.value);
  throw formatError(`${clause} clause can only be used on doubles, was given ${typeName(arg)}`);
}

function formatNonFinite(n: number): string {
  return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
}

function fixed(n: number, precision: number): string {
  return Number.isFinite(n) ? n.toFixed(precision) : formatNonFinite(n);
}

/** Go's %e: at least two exponent digits (1.000000e+03). */
function scientific(n: number, precision: number): string {
  if (!Number.isFinite(n)) return formatNonFinite(n);
  const [mant, exp] = n.toExponential(precision).split('e') as [string, string];
  const sign = exp.startsWith('-') ? '-' : '+';
  const digits = exp.replace(/^[-+]/, '').padStart(2, '0');
  return `${mant}e${sign}${digits}`;
}

function radix(arg: unknown, base: number, clause: string): string {
  if (typeof arg === 'bigint') return arg.toString(base);
  if (isUint(arg)) return arg.value.toString(base);
  throw formatError(`${clause} clause can only be used on integers${base === 2 ? ' and bools' : ''}, was given ${typeName(arg)}`);
}

function hex(arg: unknown): string {
  if (typeof arg === 'bigint' || isUint(arg)) return radix(arg, 16, 'hex');
  if (typeof arg === 'string') return Buffer.from(arg, 'utf8').toString('hex');
  if (arg instanceof Uint8Array) return Buffer.from(arg).toString('hex');
  throw formatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(arg)}`);
}

/** The %s rendering: strings bare at top level, quoted inside lists and maps. */
function formatPlain(arg: unknown, nested = false): string {
  if (typeof arg === 'string') return nested ? JSON.stringify(arg) : arg;
  if (arg === null) return 'null';
  if (typeof arg === 'bigint' || typeof arg === 'boolean') return String(arg);
  if (isUint(arg)) return arg.value.toString();
  if (typeof arg === 'number') return Number.isFinite(arg) ? String(arg) : formatNonFinite(arg);
  if (arg instanceof Uint8Array) return Buffer.from(arg).toString('utf8');
  if (Array.isArray(arg)) return `[${arg.map((v) => formatPlain(v, true)).join(', ')}]`;
  if (arg instanceof Date) return arg.toISOString().replace('.000Z', 'Z');
  if (arg instanceof Map || (typeof arg === 'object' && arg.constructor === Object)) {
    const entries = arg instanceof Map ? [...arg.entries()] : Object.entries(arg);
    const parts = entries
      .map(([k, v]) => `${formatPlain(k, true)}: ${formatPlain(v, true)}`)
      .sort();
    return `{${parts.join(', ')}}`;
  }
  return String(arg);
}
