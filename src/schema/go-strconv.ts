// Go's strconv.ParseInt(s, 10, 64) and ParseUint(s, 10, 64), which kube reads
// integers from text with (label-selector values for Gt/Lt, query parameters such
// as tailLines, resourceVersions, semver components): decimal digits (a sign only
// for ParseInt, leading zeros allowed), within range, and Go's error when not.
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** The int64 `s` spells, or the error text strconv.ParseInt gives for it. */
export function parseGoInt64(s: string): { value: bigint; error?: undefined } | { value?: undefined; error: string } {
  if (!/^[+-]?\d+$/.test(s)) return { error: `strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax` };
  const value = BigInt(s);
  if (value < INT64_MIN || value > INT64_MAX) return { error: `strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range` };
  return { value };
}

/** The uint64 `s` spells, or the error text strconv.ParseUint gives for it. */
export function parseGoUint64(s: string): { value: bigint; error?: undefined } | { value?: undefined; error: string } {
  if (!/^\d+$/.test(s)) return { error: `strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax` };
  const value = BigInt(s);
  if (value > UINT64_MAX) return { error: `strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range` };
  return { value };
}
