// Accept and If-None-Match handling for the OpenAPI handlers, which negotiate among
// their own media types (gnostic protobuf spellings) rather than the resource
// codecs, as kube-openapi's handler and handler3 do.

export interface MediaOffer<T extends string> {
  /** Media types (without parameters) that select this offer. */
  readonly types: readonly string[];
  readonly value: T;
}

interface AcceptEntry {
  readonly type: string;
  readonly q: number;
}

function parseAccept(header: string): AcceptEntry[] {
  const entries: AcceptEntry[] = [];
  for (const part of header.split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    if (type === '') continue;
    let q = 1;
    for (const param of params) {
      const [k, v] = param.split('=').map((s) => s.trim());
      if (k === 'q' && v !== undefined) q = Number(v);
    }
    if (Number.isFinite(q) && q > 0) entries.push({ type: type.toLowerCase(), q });
  }
  // Stable: equal q keeps the client's order, which is its preference.
  return entries.sort((a, b) => b.q - a.q);
}

/**
 * The offer the Accept header prefers; a missing header, `*\/*` or `<type>/*` takes
 * the first offer whose type matches. `undefined` means 406.
 */
export function negotiate<T extends string>(accept: string | undefined, offers: readonly MediaOffer<T>[]): T | undefined {
  if (accept === undefined || accept.trim() === '') return offers[0]?.value;
  for (const entry of parseAccept(accept)) {
    for (const offer of offers) {
      for (const type of offer.types) {
        if (entry.type === type || entry.type === '*/*') return offer.value;
        if (entry.type.endsWith('/*') && type.startsWith(entry.type.slice(0, -1))) return offer.value;
      }
    }
  }
  return undefined;
}

/** If-None-Match lists the current (quoted) ETag, weakly or strongly, or is `*`. */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const values = (Array.isArray(header) ? header.join(',') : header).split(',');
  return values.some((v) => {
    const t = v.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
