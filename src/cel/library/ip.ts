// Kubernetes' IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go,
// cidr.go): ip(), isIP(), ip.isCanonical(), string(ip), family and the
// address-class predicates; cidr(), isCIDR(), containsIP, containsCIDR, ip(),
// masked(), prefixLength(), string(cidr). Parsing is netip's (netip.ts) with
// kube's extra refusals: no zones, no IPv4-mapped IPv6. Messages are kube's,
// including the doubled prefix of cidr()'s parse error.
import { celError } from '../values.js';
import type { CelLibrary } from './library.js';
import {
  addrEqual, formatAddr, is4, is4In6, maskAddr, parseAddr, parsePrefix, prefixContains, NetipError, type Addr, type Prefix,
} from './netip.js';

export const IP_TYPE = 'net.IP';
export const CIDR_TYPE = 'net.CIDR';

export class CelIP {
  constructor(readonly addr: Addr) {}
}

export class CelCIDR {
  constructor(readonly prefix: Prefix) {}
}

class IPNamespace {}

/** kube's parseIPAddr; the message is what ip() reports. */
function parseIP(raw: string): Addr {
  let addr: Addr;
  try {
    addr = parseAddr(raw);
  } catch (err) {
    if (err instanceof NetipError) throw celError(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${err.message}`);
    throw err;
  }
  if (addr.zone !== '') throw celError(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  if (is4In6(addr)) throw celError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return addr;
}

const CIDR_PARSE = 'network address parse error during conversion from string';

/** kube's stringToCIDR over parseCIDR (both add the same prefix to netip's message). */
function parseCIDR(raw: string): Prefix {
  let prefix: Prefix;
  try {
    prefix = parsePrefix(raw);
  } catch (err) {
    if (err instanceof NetipError) throw celError(`${CIDR_PARSE}: ${CIDR_PARSE}: ${err.message}`);
    throw err;
  }
  if (is4In6(prefix.addr)) throw celError(`${CIDR_PARSE}: IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return prefix;
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    // Every failure of the parsers above is a CEL error: "not an IP" is the answer.
    return false;
  }
};

const bytes = (a: Addr): Uint8Array => a.bytes;
const isUnspecified = (a: Addr): boolean => bytes(a).every((b) => b === 0);
function isLoopback(a: Addr): boolean {
  return is4(a) ? bytes(a)[0] === 127 : bytes(a).every((b, i) => b === (i === 15 ? 1 : 0));
}
function isMulticast(a: Addr): boolean {
  return is4(a) ? (bytes(a)[0]! & 0xf0) === 0xe0 : bytes(a)[0] === 0xff;
}
function isLinkLocalMulticast(a: Addr): boolean {
  const b = bytes(a);
  return is4(a) ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && b[1] === 0x02;
}
function isLinkLocalUnicast(a: Addr): boolean {
  const b = bytes(a);
  return is4(a) ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
}
/** netip's IsGlobalUnicast: private and ULA ranges count as global; broadcast does not. */
function isGlobalUnicast(a: Addr): boolean {
  if (is4(a) && bytes(a).every((b) => b === 255)) return false;
  return !isUnspecified(a) && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

/** containsCIDR: the other prefix's address under this mask equals this network, and it is no wider. */
function containsCIDR(c: CelCIDR, other: CelCIDR): boolean {
  const p = c.prefix;
  const o = other.prefix;
  if (p.addr.bytes.length !== o.addr.bytes.length) return false;
  return addrEqual(maskAddr(p.addr, p.bits), maskAddr(o.addr, p.bits)) && p.bits <= o.bits;
}

export const ipLibrary: CelLibrary = {
  name: 'net.ip+net.cidr',
  register(env) {
    const fn = (sig: string, h: (...args: never[]) => unknown): void => void env.registerFunction(sig, h);
    const I = IP_TYPE;
    const C = CIDR_TYPE;
    env.registerType(I, CelIP);
    env.registerType(C, CelCIDR);
    fn(`ip(string): ${I}`, (s: string) => new CelIP(parseIP(s)));
    fn('isIP(string): bool', (s: string) => succeeds(() => parseIP(s)));
    // `ip.isCanonical` is a namespaced global, like strings.quote (strings.ts).
    env.registerType('kapi.IPNamespace', IPNamespace);
    env.registerConstant('ip', 'kapi.IPNamespace', new IPNamespace());
    fn('kapi.IPNamespace.isCanonical(string): bool', (_ns: IPNamespace, s: string) => formatAddr(parseIP(s)) === s);
    fn(`string(${I}): string`, (x: CelIP) => formatAddr(x.addr));
    fn(`${I}.family(): int`, (x: CelIP) => (is4(x.addr) ? 4n : 6n));
    fn(`${I}.isUnspecified(): bool`, (x: CelIP) => isUnspecified(x.addr));
    fn(`${I}.isLoopback(): bool`, (x: CelIP) => isLoopback(x.addr));
    fn(`${I}.isLinkLocalMulticast(): bool`, (x: CelIP) => isLinkLocalMulticast(x.addr));
    fn(`${I}.isLinkLocalUnicast(): bool`, (x: CelIP) => isLinkLocalUnicast(x.addr));
    fn(`${I}.isGlobalUnicast(): bool`, (x: CelIP) => isGlobalUnicast(x.addr));
    env.registerOperator(`${I} == ${I}`, (a: CelIP, b: CelIP) => addrEqual(a.addr, b.addr));

    fn(`cidr(string): ${C}`, (s: string) => new CelCIDR(parseCIDR(s)));
    fn('isCIDR(string): bool', (s: string) => succeeds(() => parseCIDR(s)));
    fn(`string(${C}): string`, (c: CelCIDR) => `${formatAddr(c.prefix.addr)}/${c.prefix.bits}`);
    fn(`${C}.containsIP(${I}): bool`, (c: CelCIDR, x: CelIP) => prefixContains(c.prefix, x.addr));
    // kube converts the string with ip() and, when that fails, answers "no such overload".
    fn(`${C}.containsIP(string): bool`, (c: CelCIDR, s: string) => {
      if (!succeeds(() => parseIP(s))) throw celError('no such overload');
      return prefixContains(c.prefix, parseIP(s));
    });
    fn(`${C}.containsCIDR(${C}): bool`, containsCIDR);
    // ... while containsCIDR passes cidr()'s parse error through.
    fn(`${C}.containsCIDR(string): bool`, (c: CelCIDR, s: string) => containsCIDR(c, new CelCIDR(parseCIDR(s))));
    fn(`${C}.ip(): ${I}`, (c: CelCIDR) => new CelIP(c.prefix.addr));
    fn(`${C}.masked(): ${C}`, (c: CelCIDR) => new CelCIDR({ addr: maskAddr(c.prefix.addr, c.prefix.bits), bits: c.prefix.bits }));
    fn(`${C}.prefixLength(): int`, (c: CelCIDR) => BigInt(c.prefix.bits));
    env.registerOperator(`${C} == ${C}`, (a: CelCIDR, b: CelCIDR) => a.prefix.bits === b.prefix.bits && addrEqual(a.prefix.addr, b.prefix.addr));
  },
};
