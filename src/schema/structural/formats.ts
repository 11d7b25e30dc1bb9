// String formats of value validation (validate-values.ts), one file of checks that
// depend on nothing else there.
// kube-openapi's strfmt registry as apiextensions serves it (the formats of
// pkg/apiserver/validation/formats.go; names compare without dashes, so
// `date-time` is `datetime`). Checked here: bsonobjectid, byte, cidr, date,
// datetime, duration, hexcolor, hostname, ipv4, ipv6, k8s-short-name,
// k8s-long-name, mac, password, ssn, uuid, uuid3, uuid4, uuid5. Accepted without a
// check (kube refuses some values we let through): uri (net/url.ParseRequestURI),
// email (net/mail.ParseAddress), isbn, isbn10, isbn13, creditcard, rgbcolor.
// Patterns that could backtrack (hostname, duration) run on re2js.

import { isIPv6 } from 'node:net';
import { RE2JS } from 're2js';
import { isInt64 } from '../go-json.js';
import { parseGoDurationNanos } from '../go-duration.js';
import { daysIn } from '../go-time.js';

type FormatCheck = (s: string) => boolean;



const accept: FormatCheck = () => true;

function normalizedFormat(format: string): string {
  return format.includes('-') ? format.replaceAll('-', '') : format;
}

/** Whether `v` is valid in `format`; undefined when the registry does not know the format. */
export function checkStringFormat(format: string, v: string): boolean | undefined {
  const name = normalizedFormat(format);
  return Object.hasOwn(STRING_FORMATS, name) ? STRING_FORMATS[name]!(v) : undefined;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const HOSTNAME = RE2JS.compile(
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
);
const SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SCALA_DURATION = RE2JS.compile('((\\d+)\\s*([A-Za-zµ]+))');
const DURATION_UNITS: readonly (readonly string[])[] = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** time.Parse("2006-01-02"): four-digit year, month 01-12, a day the month has. */
function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(Number(m[1]), month);
}

/** strfmt.IsDateTime: a date, a `t` (either case), and a time checked field by field as text. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = TIME.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** govalidator.IsBase64: whole padded quanta, at least one (the empty string is refused). */
function isBase64(s: string): boolean {
  if (s.length === 0 || s.length % 4 !== 0) return false;
  const end = s.endsWith('==') ? s.length - 2 : s.endsWith('=') ? s.length - 1 : s.length;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const ok = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;
    if (!ok) return false;
  }
  return true;
}

/** Go's net.ParseIP for IPv4 before Go 1.17 (netutils.ParseIPSloppy): leading zeros allowed. */
function isSloppyIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,}$/.test(p) && Number(p) <= 255);
}

function isIP(s: string): boolean {
  return isSloppyIPv4(s) || (isIPv6(s) && !s.includes('%'));
}

/** netutils.ParseCIDRSloppy: an address, a slash, a prefix length within the address's bits. */
function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const bits = isSloppyIPv4(addr) ? 32 : isIPv6(addr) && !addr.includes('%') ? 128 : 0;
  const mask = s.slice(slash + 1);
  return bits > 0 && /^\d+$/.test(mask) && Number(mask) <= bits;
}

/** net.ParseMAC: 6, 8 or 20 octets as `xx:xx…`, `xx-xx…` or `xxxx.xxxx…`. */
function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  const sizes = [6, 8, 20];
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0 || !sizes.includes((s.length + 1) / 3)) return false;
    const sep = s[2]!;
    return new RegExp(`^[0-9a-fA-F]{2}(\\${sep}[0-9a-fA-F]{2})+$`).test(s);
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0 || !sizes.includes((2 * (s.length + 1)) / 5)) return false;
    return /^[0-9a-fA-F]{4}(\.[0-9a-fA-F]{4})+$/.test(s);
  }
  return false;
}

/** strfmt.IsHostname: the pattern, at most 255 bytes, labels of at most 63 bytes. */
function isHostname(s: string): boolean {
  if (Buffer.byteLength(s, 'utf8') > 255) return false;
  if (s.split('.').some((label) => Buffer.byteLength(label, 'utf8') > 63)) return false;
  return HOSTNAME.test(s);
}

/** strfmt.ParseDuration: Go's time.ParseDuration, else any `<n> <unit>` run with a known unit (`5 days`). */
function isDuration(s: string): boolean {
  try {
    parseGoDurationNanos(s);
    return true;
  } catch {
    // Not Go's syntax: the Scala-like form below decides.
  }
  let ok = false;
  const m = SCALA_DURATION.matcher(s);
  while (m.find()) {
    // strconv.Atoi of a number past int64 fails the whole duration.
    if (!isInt64(Number(m.group(2)))) return false;
    const unit = (m.group(3) ?? '').trim().toLowerCase();
    for (const variants of DURATION_UNITS) {
      if (variants.some((v, i) => unit === v || (i === variants.length - 1 && unit.startsWith(v)))) ok = true;
    }
  }
  return ok;
}

const STRING_FORMATS: Readonly<Record<string, FormatCheck>> = Object.assign(Object.create(null) as Record<string, FormatCheck>, {
  bsonobjectid: (s: string) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: accept,
  email: accept,
  hostname: isHostname,
  ipv4: (s: string) => isIP(s) && s.includes('.'),
  ipv6: (s: string) => isIP(s) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s: string) => UUID.test(s),
  uuid3: (s: string) => UUID3.test(s),
  uuid4: (s: string) => UUID4.test(s),
  uuid5: (s: string) => UUID5.test(s),
  isbn: accept,
  isbn10: accept,
  isbn13: accept,
  creditcard: accept,
  ssn: (s: string) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s: string) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: accept,
  byte: isBase64,
  password: accept,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  k8sshortname: (s: string) => s.length <= 63 && SHORT_NAME.test(s),
  k8slongname: (s: string) => s.length <= 253 && LONG_NAME.test(s),
});

/** Whether the registry knows `format` (apiextensions strips the formats it does not). */
export function isKnownFormat(format: string): boolean {
  return Object.hasOwn(STRING_FORMATS, normalizedFormat(format));
}
