// CronJob schedules as kube-apiserver accepts them: the standard five fields
// (minute hour day-of-month month day-of-week) with `*`, `?`, lists, ranges,
// steps and month/weekday names, or one of the `@hourly`-style descriptors and
// `@every <duration>`, optionally after a `TZ=`/`CRON_TZ=` prefix. The error
// texts are those of the cron library kube validates with, so a refused
// schedule reads as it does on a real cluster.
import { parseGoDurationNanos } from '../../../schema/go-duration.js';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const WEEKDAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** minute, hour, day of month, month, day of week. */
const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: WEEKDAYS },
];

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi error text for a value that is not a decimal integer. */
function atoiError(s: string): string {
  const digits = /^[+-]?\d+$/.test(s);
  return `strconv.Atoi: parsing ${JSON.stringify(s)}: ${digits ? 'value out of range' : 'invalid syntax'}`;
}

function parseInt32(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr) || Math.abs(Number(expr)) > 2 ** 63 - 1) throw new Error(`failed to parse int from ${expr}: ${atoiError(expr)}`);
  const n = Number(expr);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names === undefined ? undefined : Object.hasOwn(names, expr.toLowerCase()) ? names[expr.toLowerCase()] : undefined;
  return named ?? parseInt32(expr);
}

/** One comma-separated part of a field: `*`, `?`, `n`, `a-b`, each optionally `/step`. */
function checkRange(expr: string, b: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  if (rangeAndStep.length === 2) {
    const step = parseInt32(rangeAndStep[1]!);
    // A single value with a step ("5/10") runs to the field's end.
    if (singleDigit) end = b.max;
    if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
}

/** Go's time.LoadLocation, answered from the zones Node knows. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC') return undefined;
  if (name === 'Local') return undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
    // Zone files are found by exact name: another spelling of a canonical name
    // ("america/new_york") is unknown to Go, while a link ("US/Eastern") resolves.
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return `unknown time zone ${name}`;
    return undefined;
  } catch {
    return `unknown time zone ${name}`;
  }
}

/** The parser's error for a schedule it refuses; undefined when the schedule parses. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    parseStandard(schedule);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function parseStandard(input: string): void {
  if (input.length === 0) throw new Error('empty spec string');
  let spec = input;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const eq = spec.indexOf('=');
    const space = spec.indexOf(' ');
    const zone = space < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, space);
    const locErr = loadLocationError(zone);
    if (locErr !== undefined) throw new Error(`provided bad location ${zone}: ${locErr}`);
    spec = space < 0 ? '' : spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return;
    if (spec.startsWith('@every ')) {
      const text = spec.slice('@every '.length);
      try {
        parseGoDurationNanos(text);
      } catch (err) {
        // Go names a number left without its unit ("5", "1h5") apart.
        const reason = /^[+-]?(?:[\d.]+[a-zµμ]+)*[\d.]*\d[\d.]*$/.test(text) ? `time: missing unit in duration ${JSON.stringify(text)}` : (err as Error).message;
        throw new Error(`failed to parse duration ${spec}: ${reason}`);
      }
      return;
    }
    throw new Error(`unrecognized descriptor: ${spec}`);
  }
  // Go's strings.Fields: split on runs of white space.
  const fields = spec.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) throw new Error(`expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`);
  fields.forEach((field, i) => {
    for (const part of field.split(',')) checkRange(part, FIELDS[i]!);
  });
}
