// Go's net/netip address and prefix parsing and formatting, as Kubernetes' IP
// and CIDR libraries use them (netip.ParseAddr, netip.ParsePrefix, Addr.String):
// strict dotted quads (no leading zeros, no short forms), RFC 4291 IPv6 with an
// optional embedded IPv4 tail and zone, RFC 5952 output. Messages follow netip's.

export interface Addr {
  /** 4 bytes for IPv4, 16 for IPv6. */
  readonly bytes: Uint8Array;
  /** IPv6 zone ("" when none). */
  readonly zone: string;
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

export class NetipError extends Error {}

const quote = (s: string): string => JSON.stringify(s);

function addrError(input: string, msg: string, at?: string): NetipError {
  return new NetipError(`ParseAddr(${quote(input)}): ${msg}${at === undefined ? '' : ` (at ${quote(at)})`}`);
}

/** netip.ParseAddr. */
export function parseAddr(s: string): Addr {
  for (const c of s) {
    if (c === '.') return { bytes: parseIPv4(s, s, 0), zone: '' };
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

function parseIPv4(input: string, s: string, start: number): Uint8Array {
  const out = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digits = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === start || i === s.length - 1 || s[i - 1] === '.') {
        throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      }
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      out[pos++] = val;
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
  out[3] = val;
  return out;
}

function hexValue(c: string | undefined): number {
  if (c === undefined) return -1;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw addrError(input, 'each colon-separated field must have at most 4 hex digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      ip.set(parseIPv4(input, s, 0), i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros', s);
  }
  return { bytes: ip, zone };
}

export const is4 = (a: Addr): boolean => a.bytes.length === 4;

/** ::ffff:a.b.c.d */
export function is4In6(a: Addr): boolean {
  if (a.bytes.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (a.bytes[i] !== 0) return false;
  return a.bytes[10] === 0xff && a.bytes[11] === 0xff;
}

/** Addr.String: dotted quad, or RFC 5952 (lower-case hex, the longest run of two or more zero groups as ::). */
export function formatAddr(a: Addr): string {
  if (is4(a)) return Array.from(a.bytes).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (a.bytes[2 * i]! << 8) | a.bytes[2 * i + 1]!);
  let zeroStart = -1;
  let zeroLen = 0;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroLen) {
      zeroStart = i;
      zeroLen = j - i;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i += zeroLen - 1;
      continue;
    }
    if (i > 0 && !out.endsWith(':')) out += ':';
    out += groups[i]!.toString(16);
  }
  return a.zone === '' ? out : `${out}%${a.zone}`;
}

function prefixError(input: string, msg: string): NetipError {
  return new NetipError(`netip.ParsePrefix(${quote(input)}): ${msg}`);
}

/** netip.ParsePrefix: host bits may be set; no zone; bits without sign or leading zero. */
export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw prefixError(s, "no '/'");
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (err) {
    if (err instanceof NetipError) throw prefixError(s, err.message);
    throw err;
  }
  if (!is4(addr) && addr.zone !== '') throw prefixError(s, 'IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]*)$/.test(bitsStr)) throw prefixError(s, `bad bits after slash: ${quote(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > addr.bytes.length * 8) throw prefixError(s, 'prefix length out of range');
  return { addr, bits };
}

/** The address with every bit after the first `bits` cleared. */
export function maskAddr(a: Addr, bits: number): Addr {
  const out = new Uint8Array(a.bytes.length);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    out[i] = a.bytes[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return { bytes: out, zone: '' };
}

export function addrEqual(a: Addr, b: Addr): boolean {
  return a.bytes.length === b.bytes.length && a.zone === b.zone && a.bytes.every((v, i) => v === b.bytes[i]);
}

/** Prefix.Contains: same family, no zone, equal under the prefix mask. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone !== '' || a.bytes.length !== p.addr.bytes.length) return false;
  return addrEqual(maskAddr(p.addr, p.bits), maskAddr(a, p.bits));
}
