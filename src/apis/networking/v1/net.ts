// IP addresses, CIDRs and host names as networking.k8s.io validates them
// (apimachinery's IsValidIP / IsValidCIDR, DNS-1035 labels, wildcard subdomains,
// domain-prefixed paths), with kube's messages. Parsing is done once here so the
// kinds compare prefixes (an ipBlock's except inside its cidr) on bytes, never on text.
import { isIP } from 'node:net';
import { DNS1123_SUBDOMAIN_MAX_LENGTH, isDNS1123Subdomain, maxLenError, regexError } from '../../../schema/label-selector.js';

export interface ParsedIp {
  readonly family: 4 | 6;
  readonly bytes: readonly number[];
  /** Go's net.IP String() form (IPv6 compressed, lower case). */
  readonly canonical: string;
}

export interface ParsedCidr {
  readonly ip: ParsedIp;
  readonly prefix: number;
}

function expandIPv6(text: string): number[] | undefined {
  let head = text;
  const tailBytes: number[] = [];
  const lastColon = head.lastIndexOf(':');
  const last = head.slice(lastColon + 1);
  if (last.includes('.')) {
    if (isIP(last) !== 4) return undefined;
    tailBytes.push(...last.split('.').map(Number));
    head = `${head.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0] ?? '');
  const right = halves.length === 2 ? groups(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  const bytes: number[] = [];
  for (const g of all) {
    const n = Number.parseInt(g, 16);
    bytes.push((n >> 8) & 0xff, n & 0xff);
  }
  if (tailBytes.length === 4) bytes.splice(12, 4, ...tailBytes);
  return bytes;
}

function canonicalIPv6(bytes: readonly number[]): string {
  // An IPv4-mapped address prints as Go prints it: ::ffff:a.b.c.d.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`;
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push(((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** An IP address, or undefined; IPv4 with leading zeros is refused as Go's netip does. */
export function parseIp(text: string): ParsedIp | undefined {
  switch (isIP(text)) {
    case 4: {
      const bytes = text.split('.').map(Number);
      return { family: 4, bytes, canonical: bytes.join('.') };
    }
    case 6: {
      if (text.includes('%')) return undefined;
      const bytes = expandIPv6(text);
      return bytes === undefined ? undefined : { family: 6, bytes, canonical: canonicalIPv6(bytes) };
    }
    default:
      return undefined;
  }
}

export function parseCidr(text: string): ParsedCidr | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (ip === undefined || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix > (ip.family === 4 ? 32 : 128) ? undefined : { ip, prefix };
}

/** The network address of a prefix: the host bits cleared. */
function networkBytes(c: ParsedCidr): number[] {
  return c.ip.bytes.map((b, i) => {
    const bits = Math.max(0, Math.min(8, c.prefix - i * 8));
    return b & ((0xff << (8 - bits)) & 0xff);
  });
}

export function canonicalCidr(c: ParsedCidr): string {
  const bytes = networkBytes(c);
  const ip = c.ip.family === 4 ? bytes.join('.') : canonicalIPv6(bytes);
  return `${ip}/${c.prefix}`;
}

/** Whether `inner`'s network address lies inside `outer` (same family). */
export function cidrContains(outer: ParsedCidr, inner: ParsedCidr): boolean {
  if (outer.ip.family !== inner.ip.family) return false;
  const a = networkBytes(outer);
  const b = networkBytes({ ip: inner.ip, prefix: outer.prefix });
  return a.every((x, i) => x === b[i]);
}

export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
export const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** IsValidIP: a parseable address in canonical form. */
export function ipErrors(value: string): string[] {
  const ip = parseIp(value);
  if (ip === undefined) return [INVALID_IP];
  return ip.canonical === value ? [] : [`must be in canonical form (${JSON.stringify(ip.canonical)})`];
}

/**
 * IsValidIPForLegacyField: older fields (an ingress's load-balancer IPs) take any
 * parseable address; a non-canonical IPv6 form is only warned about by kube.
 */
export function legacyIpErrors(value: string): string[] {
  return parseIp(value) === undefined ? [INVALID_IP] : [];
}

/** IsValidCIDR (strict, canonical) or the legacy form older fields keep (any parseable prefix). */
export function cidrErrors(value: string, strict: boolean): string[] {
  const c = parseCidr(value);
  if (c === undefined) return [INVALID_CIDR];
  if (!strict) return [];
  const canonical = canonicalCidr(c);
  return canonical === value ? [] : [`must be in canonical form (${JSON.stringify(canonical)})`];
}

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/** Service names (apimachinery NameIsDNS1035Label). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!new RegExp(`^${DNS1035_LABEL_FMT}$`).test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

const WILDCARD_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!new RegExp(`^${WILDCARD_FMT}$`).test(value)) errs.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'));
  return errs;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** IsDomainPrefixedPath (an IngressClass's controller): `example.com/path`. */
export function domainPrefixedPathErrors(value: string): { value: string; message: string }[] {
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || host === '' || rest === '') return [{ value, message: 'must be a domain-prefixed path (such as "acme.io/foo")' }];
  const errs = isDNS1123Subdomain(host).map((message) => ({ value: host, message }));
  if (!new RegExp(`^${HTTP_PATH_FMT}$`).test(rest)) errs.push({ value: rest, message: regexError('Invalid path', HTTP_PATH_FMT) });
  return errs;
}
