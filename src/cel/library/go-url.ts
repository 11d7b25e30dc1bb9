// The part of Go's net/url that Kubernetes' URL library observes: Parse and
// ParseRequestURI (scheme, opaque, authority with userinfo and host[:port],
// path with RawPath, query, fragment), Hostname/Port, EscapedPath and Query.
// Error texts are Go's, wrapped as *url.Error ("parse <quoted>: <err>").

export interface GoURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly rawQuery: string;
  readonly forceQuery: boolean;
  readonly fragment: string;
  readonly user: string | undefined;
}

export class GoURLError extends Error {}

type Encoding = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);

/** url.shouldEscape for the encodings used here. */
function shouldEscape(c: string, mode: Encoding): boolean {
  if (isAlnum(c)) return false;
  if (mode === 'host' || mode === 'zone') {
    if ("!$&'()*+,;=:[]<>\"".includes(c)) return false;
  }
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path': return c === '?';
      case 'userPassword': return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent': return true;
      case 'fragment': return false;
      default: break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

/** url.unescape: %XX decoding (bytes, then UTF-8), '+' as space in query components, host restrictions. */
function unescape(s: string, mode: Encoding): string {
  const host = mode === 'host' || mode === 'zone';
  if (!host && !s.includes('%') && !(mode === 'queryComponent' && s.includes('+'))) return s;
  // Linear over the UTF-8 bytes, as Go works on bytes.
  const src = Buffer.from(s, 'utf8');
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length;) {
    const b = src[i]!;
    if (b === 0x25) {
      const hex = src.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new GoURLError(`invalid URL escape ${JSON.stringify(src.subarray(i, i + 3).toString('latin1'))}`);
      const v = parseInt(hex, 16);
      // RFC 3986 §3.2.2: in a host only non-ASCII bytes may be escaped (and %25 before a zone).
      if (mode === 'host' && v < 0x80 && hex !== '25') throw new GoURLError(`invalid URL escape ${JSON.stringify(`%${hex}`)}`);
      out[n++] = v;
      i += 3;
      continue;
    }
    if (host && b < 0x80 && shouldEscape(String.fromCharCode(b), mode)) {
      throw new GoURLError(`invalid character ${JSON.stringify(String.fromCharCode(b))} in host name`);
    }
    out[n++] = b === 0x2b && mode === 'queryComponent' ? 0x20 : b;
    i++;
  }
  return out.subarray(0, n).toString('utf8');
}

/** url.escape for paths: every byte shouldEscape refuses as %XX (upper-case). */
function escapePath(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && !shouldEscape(c, 'path') ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** url.validEncoded: sub-delims, ':' '@' '[' ']' and '%' are left as written. */
function validEncoded(s: string): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (c.charCodeAt(0) >= 0x80 || shouldEscape(c, 'path')) return false;
  }
  return true;
}

function getScheme(raw: string): { scheme: string; rest: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoURLError('missing protocol scheme');
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new GoURLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new GoURLError(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

function parseAuthority(authority: string): { user: string | undefined; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(userinfo)) throw new GoURLError('net/url: invalid userinfo');
  return { user: unescape(userinfo, 'userPassword'), host };
}

/** url.parse: viaRequest is ParseRequestURI's stricter mode (absolute URI or absolute path, no fragment split). */
function parse(raw: string, viaRequest: boolean): GoURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoURLError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new GoURLError('empty url');
  const url = { scheme: '', opaque: '', host: '', path: '', rawPath: '', rawQuery: '', forceQuery: false, fragment: '', user: undefined as string | undefined };
  if (raw === '*') return { ...url, path: '*' };
  const sch = getScheme(raw);
  url.scheme = sch.scheme.toLowerCase();
  let rest = sch.rest;
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (viaRequest) throw new GoURLError('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new GoURLError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const a = parseAuthority(authority);
    url.user = a.user;
    url.host = a.host;
  }
  url.path = unescape(rest, 'path');
  url.rawPath = escapePath(url.path) === rest ? '' : rest;
  return url;
}

function wrap(raw: string, f: () => GoURL): GoURL {
  try {
    return f();
  } catch (err) {
    if (err instanceof GoURLError) throw new GoURLError(`parse ${JSON.stringify(raw)}: ${err.message}`);
    throw err;
  }
}

/** url.ParseRequestURI. */
export function parseRequestURI(raw: string): GoURL {
  return wrap(raw, () => parse(raw, true));
}

/** url.Parse: the fragment is split off first and unescaped. */
export function parseURL(raw: string): GoURL {
  return wrap(raw, () => {
    const hash = raw.indexOf('#');
    const u = parse(hash < 0 ? raw : raw.slice(0, hash), false);
    return hash < 0 ? u : { ...u, fragment: unescape(raw.slice(hash + 1), 'fragment') };
  });
}

/** url.splitHostPort as Hostname and Port use it. */
function splitHostPort(hostPort: string): { host: string; port: string } {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { host, port };
}

export const hostname = (u: GoURL): string => splitHostPort(u.host).host;
export const port = (u: GoURL): string => splitHostPort(u.host).port;

/** URL.EscapedPath: RawPath when it is a valid encoding of Path, else Path escaped. */
export function escapedPath(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath)) return u.rawPath;
  if (u.path === '*') return '*';
  return escapePath(u.path);
}

/** URL.Query: key → values in order; pairs with ';' or a bad escape are dropped, as ParseQuery drops them. */
export function query(u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent');
      value = unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent');
    } catch (err) {
      if (err instanceof GoURLError) continue;
      throw err;
    }
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  }
  return out;
}
