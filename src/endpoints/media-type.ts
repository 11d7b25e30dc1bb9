// Media-type parsing shared by content negotiation and discovery: Accept lists in
// the client's order (client-go states its preference by order; q-values are
// honoured by a stable sort) and Content-Type with parameters.

export interface MediaRange {
  /** Lower-cased "type/subtype". */
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

export function parseMediaType(text: string): { type: string; params: Record<string, string> } {
  const [head = '', ...rest] = text.split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    params[key] = value;
  }
  return { type: head.trim().toLowerCase(), params };
}

/** Accept ranges, highest q first, ties in the order given; absent header = any. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (header === undefined || header.trim() === '') return [{ type: '*/*', params: {}, q: 1 }];
  const ranges: MediaRange[] = [];
  for (const item of header.split(',')) {
    if (item.trim() === '') continue;
    const { type, params } = parseMediaType(item);
    const { q: qText, ...rest } = params;
    const q = qText === undefined ? 1 : Number(qText);
    if (!Number.isFinite(q) || q <= 0) continue;
    ranges.push({ type, params: rest, q });
  }
  return ranges.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i).map(({ r }) => r);
}
