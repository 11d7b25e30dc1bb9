// Go's time.ParseDuration and Duration.String, shared by everything that meets
// Go durations: kube-apiserver's flags (--request-timeout=1m0s), client-go's
// `?timeout=32s`, and metav1.Duration in protobuf bodies. Nanoseconds are the
// unit, as in Go; the millisecond forms are for timers.

const UNIT_NS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC Greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const TERM = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;

/** Nanoseconds of a Go duration (`1h2m3.5s`, `300ms`, `-1.5h`, `0`); throws Go's error text. */
export function parseGoDurationNanos(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  // "0" is the one unit-less duration Go accepts.
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const match = TERM.exec(rest);
    if (match === null) throw invalid();
    const [whole, intPart = '', fracPart, unit = ''] = match;
    if (intPart === '' && (fracPart ?? '') === '') throw invalid();
    const scale = Object.hasOwn(UNIT_NS, unit) ? UNIT_NS[unit] : undefined;
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += Number(`${intPart === '' ? '0' : intPart}.${fracPart ?? ''}0`) * scale;
    rest = rest.slice(whole.length);
  }
  return sign * Math.round(total);
}

/** Milliseconds (fractional below 1 ms) of a Go duration. */
export function parseGoDuration(text: string): number {
  return parseGoDurationNanos(text) / 1e6;
}

/** Go's Duration.String for a nanosecond count: 0s, 1.5µs, 300ms, 1m0s, 1h0m0s. */
export function formatGoDurationNanos(nanos: number): string {
  if (nanos === 0) return '0s';
  const sign = nanos < 0 ? '-' : '';
  const u = Math.abs(nanos);
  if (u < 1e3) return `${sign}${u}ns`;
  if (u < 1e6) return `${sign}${fraction(u, 1e3)}µs`;
  if (u < 1e9) return `${sign}${fraction(u, 1e6)}ms`;
  const hours = Math.floor(u / 3600e9);
  const minutes = Math.floor((u % 3600e9) / 60e9);
  const secs = fraction(u % 60e9, 1e9);
  if (hours > 0) return `${sign}${hours}h${minutes}m${secs}s`;
  if (minutes > 0) return `${sign}${minutes}m${secs}s`;
  return `${sign}${secs}s`;
}

/** Go's Duration.String for milliseconds. */
export function formatGoDuration(ms: number): string {
  return formatGoDurationNanos(Math.round(ms * 1e6));
}

/** `value / unit` with the fraction's trailing zeros dropped, as Go prints it. */
function fraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const rest = value % unit;
  if (rest === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}
