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

// Durations are Go's: one implementation for flags, query parameters and protobuf.
export { formatGoDurationNanos as formatDuration, parseGoDurationNanos as parseDuration } from '../../schema/go-duration.js';
