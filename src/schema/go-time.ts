// Go's time.Parse(time.RFC3339, …), for the values kube reads that way: a bootstrap
// token Secret's `expiration`, read both by the bootstrap-token authenticator and by
// the token cleaner and signer, which must agree on what has expired.

/** time.RFC3339 as Go parses it: fractional seconds allowed, `Z` or a numeric offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/;

/** Days in `month` (1-12) of `year`. */
export function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Milliseconds since the epoch of an RFC 3339 time, or undefined where Go's
 * time.Parse answers an error (bad form; a day, hour, minute, second or offset out
 * of range — Date.parse would roll 2099-04-31 over to May 1st and take hour 24).
 */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMin = 0;
  if (m[7] !== 'Z') {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const frac = /\.(\d+)/.exec(text.slice(19))?.[1] ?? '';
  const ms = frac === '' ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  return Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000;
}
