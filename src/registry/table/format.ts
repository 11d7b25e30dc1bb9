// Cell formatting shared by every kind's columns: ages as kube's HumanDuration
// renders them, label maps as `k=v,k2=v2`, and the `<none>` placeholders the
// printers use. Cells are computed on the server (kube's printers run with
// Wide=true), so nothing here truncates for terminal width.

/**
 * apimachinery's util/duration HumanDuration: exact seconds below 2 minutes, then
 * one or two units whose precision drops as the duration grows ("3m20s", "5h",
 * "12d", "2y30d"). A clock skew of up to 2 s reads as "0s"; more is "<invalid>".
 */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) truncates toward zero.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return withRest(minutes, 'm', seconds % 60, 's');
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return withRest(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return withRest(days, 'd', hours % 24, 'h');
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return withRest(years, 'y', days % 365, 'd');
  return `${years}y`;
}

function withRest(value: number, unit: string, rest: number, restUnit: string): string {
  return rest === 0 ? `${value}${unit}` : `${value}${unit}${rest}${restUnit}`;
}

/** The age of a timestamp as printers show it; a missing or unreadable one is "<unknown>". */
export function since(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return '<unknown>';
  return humanDuration(now.getTime() - at);
}

/** Go's time.RFC3339 of a UTC time (whole seconds, `Z`); a missing time is Go's zero time. */
export function rfc3339(timestamp: unknown): string {
  const at = typeof timestamp === 'string' ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(at)) return '0001-01-01T00:00:00Z';
  return new Date(at).toISOString().replace(/\.\d+Z$/, 'Z');
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  if (labels === null || typeof labels !== 'object') return '<none>';
  const pairs = Object.entries(labels as Record<string, unknown>)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : ''}`);
  return pairs.length === 0 ? '<none>' : pairs.join(',');
}

export function orNone(value: string): string {
  return value === '' ? '<none>' : value;
}
