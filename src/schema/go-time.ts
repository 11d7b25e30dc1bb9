// Go's time.Parse for the two layouts kube reads times with: time.RFC3339
// (metav1.Time's UnmarshalJSON, a bootstrap token Secret's `expiration`) and
// RFC3339Micro (metav1.MicroTime's, which insists on exactly six fractional
// digits). What Go accepts is accepted and what it refuses is refused with its
// error text, including the corners its general parser allows beyond RFC 3339:
// a one-digit hour, a comma before the fraction, offsets up to ±24:60, year 0.

export const RFC3339_LAYOUT = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
export type GoTimeLayout = typeof RFC3339_LAYOUT | typeof RFC3339_MICRO_LAYOUT;

/**
 * The instant — milliseconds since the epoch, and the whole seconds and the
 * nanoseconds within them that Go keeps — or time.Parse's error text.
 */
export type GoTimeResult =
  | { readonly ms: number; readonly seconds: number; readonly nanos: number; readonly error?: undefined }
  | { readonly ms?: undefined; readonly error: string };

/** Go's isLeap: year 0 is a leap year (Date.UTC would read years 0-99 as 1900-1999). */
function isLeap(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days in `month` (1-12) of `year`, as Go counts them. */
export function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS[month - 1]!;
}

/** One element of a layout: the literal text before it and what it reads. */
interface Element {
  readonly prefix: string;
  readonly std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micros' | 'zone';
  /** The element's text in the layout, which Go's errors name. */
  readonly text: string;
}

function elementsOf(micro: boolean): readonly Element[] {
  return [
    { prefix: '', std: 'year', text: '2006' },
    { prefix: '-', std: 'month', text: '01' },
    { prefix: '-', std: 'day', text: '02' },
    { prefix: 'T', std: 'hour', text: '15' },
    { prefix: ':', std: 'minute', text: '04' },
    { prefix: ':', std: 'second', text: '05' },
    ...(micro ? [{ prefix: '', std: 'micros', text: '.000000' } as const] : []),
    { prefix: '', std: 'zone', text: 'Z07:00' },
  ];
}

const ELEMENTS: Readonly<Record<GoTimeLayout, readonly Element[]>> = {
  [RFC3339_LAYOUT]: elementsOf(false),
  [RFC3339_MICRO_LAYOUT]: elementsOf(true),
};

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

function isCommaOrPeriod(s: string, i: number): boolean {
  return s[i] === '.' || s[i] === ',';
}

/** Go's getnum: one or two digits (two when `fixed`); undefined is its errBad. */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : { n: s.charCodeAt(0) - 0x30, rest: s.slice(1) };
  return { n: (s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), rest: s.slice(2) };
}

/** Go's atoi in package time: an optional sign, then digits to the end (none at all reads as 0). */
function atoi(s: string): number | undefined {
  let i = 0;
  const negative = s[0] === '-';
  if (negative || s[0] === '+') i = 1;
  let x = 0;
  for (; i < s.length; i++) {
    if (!isDigit(s, i)) return undefined;
    x = x * 10 + (s.charCodeAt(i) - 0x30);
  }
  return negative ? -x : x;
}

/** Go's parseNanoseconds over value[0, n): a comma or period, then digits (at most nine read). */
function parseNanoseconds(value: string, n: number): { ns: number; range?: string } | undefined {
  if (!isCommaOrPeriod(value, 0)) return undefined;
  const digits = Math.min(n, 10);
  const ns = atoi(value.slice(1, digits));
  if (ns === undefined) return undefined;
  if (ns < 0) return { ns: 0, range: 'fractional second' };
  return { ns: ns * 10 ** (10 - digits) };
}

const HEX = '0123456789abcdef';

/**
 * Go's quote in package time: printable ASCII as is (with `"` and `\` escaped),
 * every other byte of the UTF-8 text as \xNN.
 */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${HEX[b >> 4]}${HEX[b & 15]}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

/** time.Parse(layout, value) for kube's two layouts. */
export function parseGoTime(layout: GoTimeLayout, value: string): GoTimeResult {
  const elements = ELEMENTS[layout];
  const cannot = (rest: string, what: string): GoTimeResult => ({
    error: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(what)}`,
  });
  const outOfRange = (what: string): GoTimeResult => ({ error: `parsing time ${goTimeQuote(value)}: ${what} out of range` });
  let s = value;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let offsetSeconds = 0;
  for (let e = 0; e < elements.length; e++) {
    const element = elements[e]!;
    if (element.prefix !== '') {
      if (!s.startsWith(element.prefix)) return cannot(s, element.prefix);
      s = s.slice(element.prefix.length);
    }
    const hold = s;
    let bad = false;
    let range = '';
    switch (element.std) {
      case 'year': {
        const n = s.length >= 4 && isDigit(s, 0) ? atoi(s.slice(0, 4)) : undefined;
        if (n === undefined) bad = true;
        else [year, s] = [n, s.slice(4)];
        break;
      }
      case 'month':
      case 'day':
      case 'minute': {
        const got = getnum(s, true);
        if (got === undefined) {
          bad = true;
          break;
        }
        s = got.rest;
        if (element.std === 'month') {
          month = got.n;
          if (month < 1 || month > 12) range = 'month';
        } else if (element.std === 'day') {
          day = got.n;
        } else {
          minute = got.n;
          if (minute >= 60) range = 'minute';
        }
        break;
      }
      case 'hour': {
        const got = getnum(s, false);
        if (got === undefined) bad = true;
        else [hour, s] = [got.n, got.rest];
        if (hour >= 24) range = 'hour';
        break;
      }
      case 'second': {
        const got = getnum(s, true);
        if (got === undefined) {
          bad = true;
          break;
        }
        [second, s] = [got.n, got.rest];
        if (second >= 60) {
          range = 'second';
          break;
        }
        // A fraction the layout does not name is read here; RFC3339Micro's own element reads its.
        if (s.length >= 2 && isCommaOrPeriod(s, 0) && isDigit(s, 1) && elements[e + 1]?.std !== 'micros') {
          let n = 2;
          while (n < s.length && isDigit(s, n)) n++;
          const frac = parseNanoseconds(s, n);
          if (frac === undefined) bad = true;
          else [nanos, range] = [frac.ns, frac.range ?? ''];
          s = s.slice(n);
        }
        break;
      }
      case 'micros': {
        const frac = s.length >= 7 ? parseNanoseconds(s, 7) : undefined;
        if (frac === undefined) bad = true;
        else [nanos, range, s] = [frac.ns, frac.range ?? '', s.slice(7)];
        break;
      }
      case 'zone': {
        if (s[0] === 'Z') {
          s = s.slice(1);
          break;
        }
        if (s.length < 6 || s[3] !== ':') {
          bad = true;
          break;
        }
        const sign = s[0];
        // Go reads a part that fails as 0 and still checks both ranges before the error.
        const hh = getnum(s.slice(1, 3), true);
        const mm = hh === undefined ? undefined : getnum(s.slice(4, 6), true);
        s = s.slice(6);
        const hours = hh?.n ?? 0;
        const minutes = mm?.n ?? 0;
        // Go compares with > here: some people write offsets of 24 hours or 60 minutes.
        if (hours > 24) range = 'time zone offset hour';
        if (minutes > 60) range = 'time zone offset minute';
        offsetSeconds = (sign === '-' ? -1 : 1) * (hours * 60 + minutes) * 60;
        if (hh === undefined || mm === undefined || (sign !== '-' && sign !== '+')) bad = true;
        break;
      }
    }
    if (range !== '') return outOfRange(range);
    if (bad) return cannot(hold, element.text);
  }
  if (s !== '') return { error: `parsing time ${goTimeQuote(value)}: extra text: ${goTimeQuote(s)}` };
  if (day < 1 || day > daysIn(year, month)) return outOfRange('day');
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, 0);
  const seconds = at.getTime() / 1000 - offsetSeconds;
  return { ms: seconds * 1000 + Math.floor(nanos / 1e6), seconds, nanos };
}

/** Go's appendInt: a sign, then at least `width` digits. */
function padded(n: number, width: number): string {
  const digits = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${digits}` : digits;
}

/**
 * How kube writes a time it read: t.UTC().Format(layout) — metav1.Time to the
 * second, MicroTime with six fractional digits (truncated, as Go formats).
 */
export function formatGoTime(layout: GoTimeLayout, seconds: number, nanos: number): string {
  const at = new Date(seconds * 1000);
  const date = `${padded(at.getUTCFullYear(), 4)}-${padded(at.getUTCMonth() + 1, 2)}-${padded(at.getUTCDate(), 2)}`;
  const time = `${padded(at.getUTCHours(), 2)}:${padded(at.getUTCMinutes(), 2)}:${padded(at.getUTCSeconds(), 2)}`;
  const fraction = layout === RFC3339_MICRO_LAYOUT ? `.${padded(Math.floor(nanos / 1000), 6)}` : '';
  return `${date}T${time}${fraction}Z`;
}

/**
 * time.Parse(time.RFC3339, text) in milliseconds since the epoch, or undefined
 * where Go answers an error (Date.parse would roll 2099-04-31 over to May 1st).
 */
export function parseRfc3339(text: string): number | undefined {
  return parseGoTime(RFC3339_LAYOUT, text).ms;
}
