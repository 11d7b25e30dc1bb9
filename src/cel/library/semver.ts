// Kubernetes' semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go):
// semver() and isSemver() with blang/semver v4's Parse rules and messages, the
// optional normalize argument (leading "v" removed, missing minor/patch filled
// with 0, leading zeros removed), major/minor/patch, comparisons by semver
// precedence; `==` by precedence too (build metadata ignored, as Version.Equals).
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';
import { parseGoUint64 } from '../../schema/go-strconv.js';

export const SEMVER_TYPE = 'kubernetes.Semver';

interface PreRelease {
  readonly num?: bigint;
  readonly str?: string;
}

export class CelSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly PreRelease[],
    readonly build: readonly string[],
  ) {}
}

class SemverError extends Error {}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

/** strconv.ParseUint(s, 10, 64), its error as the semver library's. */
function parseUint(s: string): bigint {
  const parsed = parseGoUint64(s);
  if (parsed.error !== undefined) throw new SemverError(parsed.error);
  return parsed.value;
}

function component(s: string, what: 'major' | 'minor' | 'patch'): bigint {
  const title = what[0]!.toUpperCase() + what.slice(1);
  if (!NUMBERS.test(s)) throw new SemverError(`Invalid character(s) found in ${what} number ${JSON.stringify(s)}`);
  if (hasLeadingZeroes(s)) throw new SemverError(`${title} number must not contain leading zeroes ${JSON.stringify(s)}`);
  return parseUint(s);
}

function preRelease(s: string): PreRelease {
  if (s === '') throw new SemverError('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(s)}`);
    return { num: parseUint(s) };
  }
  if (ALPHANUM.test(s)) return { str: s };
  throw new SemverError(`Invalid character(s) found in prerelease ${JSON.stringify(s)}`);
}

/** Go's strings.SplitN(s, sep, 3). */
function splitN3(s: string): string[] {
  const first = s.indexOf('.');
  if (first < 0) return [s];
  const second = s.indexOf('.', first + 1);
  if (second < 0) return [s.slice(0, first), s.slice(first + 1)];
  return [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
}

/** blang/semver v4 Parse. */
function parse(s: string): CelSemver {
  if (s === '') throw new SemverError('Version string empty');
  const parts = splitN3(s);
  if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
  const major = component(parts[0]!, 'major');
  const minor = component(parts[1]!, 'minor');
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const plus = patchStr.indexOf('+');
  if (plus >= 0) {
    build = patchStr.slice(plus + 1).split('.');
    patchStr = patchStr.slice(0, plus);
  }
  const dash = patchStr.indexOf('-');
  if (dash >= 0) {
    pre = patchStr.slice(dash + 1).split('.');
    patchStr = patchStr.slice(0, dash);
  }
  const patch = component(patchStr, 'patch');
  const preReleases = pre.map(preRelease);
  for (const b of build) {
    if (b === '') throw new SemverError('Build meta data is empty');
    if (!ALPHANUM.test(b)) throw new SemverError(`Invalid character(s) found in build meta data ${JSON.stringify(b)}`);
  }
  return new CelSemver(major, minor, patch, preReleases, build);
}

/** Kubernetes' normalizeAndParse: ParseTolerant without its whitespace trimming. */
function normalizeAndParse(input: string): CelSemver {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const parts = splitN3(s).map((p) => {
    if (p.length <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t === '' || !/[0-9]/.test(t[0]!) ? `0${t}` : t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new SemverError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parse(parts.join('.'));
}

function toSemver(s: string, normalize: boolean): CelSemver {
  try {
    return normalize ? normalizeAndParse(s) : parse(s);
  } catch (err) {
    if (err instanceof SemverError) throw celError(err.message);
    throw err;
  }
}

function isSemver(s: string, normalize: boolean): boolean {
  try {
    if (normalize) normalizeAndParse(s);
    else parse(s);
    return true;
  } catch (err) {
    if (err instanceof SemverError) return false;
    throw err;
  }
}

const cmp = <T>(a: T, b: T): -1 | 0 | 1 => (a === b ? 0 : a > b ? 1 : -1);

function comparePre(a: PreRelease, b: PreRelease): -1 | 0 | 1 {
  if (a.num !== undefined && b.num !== undefined) return cmp(a.num, b.num);
  if (a.num !== undefined) return -1;
  if (b.num !== undefined) return 1;
  // Go compares strings byte-wise; the alphabet here is ASCII, so UTF-16 order agrees.
  return cmp(a.str!, b.str!);
}

/** Version.Compare: major, minor, patch, then pre-release (none ranks highest); build ignored. */
export function compareSemver(a: CelSemver, b: CelSemver): -1 | 0 | 1 {
  const head = cmp(a.major, b.major) || cmp(a.minor, b.minor) || cmp(a.patch, b.patch);
  if (head !== 0) return head;
  if (a.pre.length === 0 || b.pre.length === 0) return cmp(a.pre.length === 0 ? 1 : 0, b.pre.length === 0 ? 1 : 0);
  for (let i = 0; i < a.pre.length && i < b.pre.length; i++) {
    const c = comparePre(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return cmp(a.pre.length, b.pre.length);
}

// types.Int(v.Major) converts Go's uint64 to int64, wrapping above 2^63-1.
const asInt = (v: bigint): bigint => BigInt.asIntN(64, v);

export const semverLibrary: CelLibrary = {
  name: 'kubernetes.Semver',
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    const S = SEMVER_TYPE;
    env.registerType(S, CelSemver);
    fn(`semver(string): ${S}`, (s: string) => toSemver(s, false));
    fn(`semver(string, bool): ${S}`, toSemver);
    fn('isSemver(string): bool', (s: string) => isSemver(s, false));
    fn('isSemver(string, bool): bool', isSemver);
    fn(`${S}.major(): int`, (v: CelSemver) => asInt(v.major));
    fn(`${S}.minor(): int`, (v: CelSemver) => asInt(v.minor));
    fn(`${S}.patch(): int`, (v: CelSemver) => asInt(v.patch));
    fn(`${S}.isLessThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) < 0);
    fn(`${S}.isGreaterThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) > 0);
    fn(`${S}.compareTo(${S}): int`, (a: CelSemver, b: CelSemver) => BigInt(compareSemver(a, b)));
    env.registerOperator(`${S} == ${S}`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === 0);
  },
};
