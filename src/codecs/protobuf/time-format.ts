// Text forms of apimachinery's time types, as their Go MarshalJSON writes them:
// metav1.Time is RFC 3339 in UTC with whole seconds, metav1.MicroTime adds six
// fractional digits, metav1.Duration is Go's time.Duration.String(). The parsers
// accept what Go's parsers accept for these fields, so an object read back from
// JSON re-encodes to the same seconds/nanos.

export interface Timestamp {
  readonly seconds: number;
  readonly nanos: number;
}

function isoSeconds(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 19)}Z`;
}

/** metav1.Time: `2026-01-02T15:04:05Z` (sub-second precision is not shown). */
export function formatTime(t: Timestamp): string {
  return isoSeconds(t.seconds);
}

/** metav1.MicroTime: `2026-01-02T15:04:05.123456Z`. */
export function formatMicroTime(t: Timestamp): string {
  const micros = String(Math.floor(t.nanos / 1000)).padStart(6, '0');
  return `${isoSeconds(t.seconds).slice(0, 19)}.${micros}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

export function parseTime(text: string): Timestamp {
  const m = RFC3339.exec(text);
  if (m === null) throw new Error(`invalid RFC 3339 time ${JSON.stringify(text)}`);
  const utcMillis = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (+m[10]! * 60 + +m[11]!);
  const seconds = utcMillis / 1000 - offsetMinutes * 60;
  const nanos = m[7] === undefined ? 0 : Number(m[7].slice(1, 10).padEnd(9, '0'));
  return { seconds, nanos };
}

const NS = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 } as const;

/** Go's time.Duration.String() for a nanosecond count. */
export function formatDuration(nanos: number): string {
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

/** `value / unit` with the fraction's trailing zeros dropped, as Go prints it. */
function fraction(value: number, unit: number): string {
  const whole = Math.floor(value / unit);
  const rest = value % unit;
  if (rest === 0) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Go's time.ParseDuration: `1h2m3.5s`, `300ms`, `-1.5h`, `0`. */
export function parseDuration(text: string): number {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`invalid duration ${JSON.stringify(text)}`);
  let total = 0;
  DURATION_PART.lastIndex = 0;
  while (DURATION_PART.lastIndex < rest.length) {
    const m = DURATION_PART.exec(rest);
    if (m === null) throw new Error(`invalid duration ${JSON.stringify(text)}`);
    total += Number(m[1]) * NS[m[2] as keyof typeof NS];
  }
  return sign * Math.round(total);
}
