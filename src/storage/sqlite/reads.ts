// Reads: latest state straight from `kv`, older revisions reconstructed from the
// log rows newer than the revision asked for (see listAtSql in statements.ts).
// Each read is one synchronous call, so it can never observe half of a commit.
import type { KvEntry, KvListOptions, KvListResult } from '../kv.js';
import { EVENT_CREATE, EVENT_DELETE } from './schema.js';
import { listRange } from './key-range.js';
import type { KvRow, LogRow, Statements } from './statements.js';
import { resolveReadRevision, type RevisionState } from './state.js';

export function entryOf(row: KvRow): KvEntry {
  return { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.mod_revision };
}

/** The entry a log row describes as the state right after its revision. */
function entryAfter(row: LogRow): KvEntry | undefined {
  if (row.type === EVENT_DELETE) return undefined;
  return { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.revision };
}

/** The entry a log row's write replaced, i.e. the state right before its revision. */
function entryBefore(row: LogRow): KvEntry | undefined {
  if (row.type === EVENT_CREATE) return undefined;
  const value = row.type === EVENT_DELETE ? row.value : row.previous!;
  return { key: row.key, value, createRevision: row.create_revision, modRevision: row.prev_revision };
}

export function readGet(st: Statements, state: RevisionState, key: string, revision?: number): KvEntry | undefined {
  const rev = resolveReadRevision(state, revision);
  const current = st.getKv.get(key);
  // Unchanged since `rev` (or absent now and never logged after it): current state is the answer.
  if (rev === state.revision || (current !== undefined && current.mod_revision <= rev)) {
    return current === undefined ? undefined : entryOf(current);
  }
  const atOrBefore = st.logAtOrBefore.get(key, rev);
  if (atOrBefore !== undefined) return entryAfter(atOrBefore);
  const firstAfter = st.logFirstAfter.get(key, rev);
  if (firstAfter !== undefined) return entryBefore(firstAfter);
  return undefined;
}

export function readList(st: Statements, state: RevisionState, prefix: string, opts: KvListOptions = {}): KvListResult {
  const rev = resolveReadRevision(state, opts.revision);
  const range = listRange(prefix, opts.after);
  const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : 0;
  // One extra row tells whether more follow without a second query.
  const sqlLimit = limit === 0 ? -1 : limit + 1;
  let rows: KvRow[];
  if (rev === state.revision) {
    const stmt = range.afterKey ? st.listAfter : st.listFrom;
    rows = stmt.all(range.low, range.high, sqlLimit);
  } else {
    const stmt = range.afterKey ? st.listAtAfter : st.listAtFrom;
    rows = stmt.all({ low: range.low, high: range.high, rev, limit: sqlLimit });
  }
  const more = limit !== 0 && rows.length > limit;
  if (more) rows.length = limit;
  return { entries: rows.map(entryOf), revision: rev, more };
}

export function readCount(st: Statements, prefix: string): number {
  const range = listRange(prefix, undefined);
  return st.count.get(range.low, range.high)!.n;
}
