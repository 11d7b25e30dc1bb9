// Go's time.ParseDuration and Duration.String, because kube-apiserver's duration
// flags (--request-timeout=1m0s, --etcd-compaction-interval=5m) take that syntax
// and users copy values from kube manifests.
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const TERM = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;

/** Milliseconds (fractional below 1 ms) for a Go duration; throws Go's `time: invalid duration "x"`. */
export function parseGoDuration(text: string): number {
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
    const scale = UNIT_MS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += Number(`${intPart === '' ? '0' : intPart}.${fracPart ?? ''}0`) * scale;
    rest = rest.slice(whole.length);
  }
  return sign * total;
}

/** Go's Duration.String for whole milliseconds: 0s, 300ms, 1.5s, 1m0s, 1h0m0s. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = `${Math.floor(rest / 1000)}${rest % 1000 === 0 ? '' : `.${String(rest % 1000).padStart(3, '0').replace(/0+$/, '')}`}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}
