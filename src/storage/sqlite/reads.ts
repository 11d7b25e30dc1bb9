// Reads: the latest state is kv joined with the log row at each key's mod
// revision (where its value lives). An older revision R is read from the same
// kv row: a key unchanged since R is answered by it, and a key changed after R
// steps back along prev_revision (one primary-key lookup per change after R)
// to the row that was current at R. Compaction keeps every row such a walk can
// reach (statements.ts, purge). Each read is one synchronous call, so it can
// never observe half of a commit.
import type { KvEntry, KvListOptions, KvListResult } from '../kv.js';
import { StorageError } from '../../errors/storage-error.js';
import { EVENT_CREATE, EVENT_DELETE } from './schema.js';
import { listRange } from './key-range.js';
import type { KvMeta, KvRow, LogRow, Statements } from './statements.js';
import { resolveReadRevision, type RevisionState } from './state.js';

/** The entry of a live kv row (callers have excluded tombstones). */
export function entryOf(row: KvRow): KvEntry {
  return { key: row.key, value: row.value!, createRevision: row.create_revision, modRevision: row.mod_revision };
}

function logAt(st: Statements, revision: number): LogRow {
  const row = st.logAt.get(revision);
  if (row === undefined) {
    // Compaction keeps every row a walk can reach; a miss means the file was changed behind our back.
    throw new StorageError('Unavailable', `sqlite log has no row at revision ${revision}`, { revision });
  }
  return row;
}

/** The state of the key described by `meta` as of revision `rev` (<= the current revision). */
function entryAt(st: Statements, meta: KvMeta, rev: number): KvEntry | undefined {
  if (meta.mod_revision <= rev && meta.deleted === 1) return undefined;
  let row = logAt(st, meta.mod_revision);
  while (row.revision > rev) {
    // A create's link is the tombstone it replaced (or 0): at or below rev the key was absent.
    if (row.type === EVENT_CREATE && row.prev_revision <= rev) return undefined;
    row = logAt(st, row.prev_revision);
  }
  if (row.type === EVENT_DELETE) return undefined;
  return { key: row.key, value: row.value!, createRevision: row.create_revision, modRevision: row.revision };
}

export function readGet(st: Statements, state: RevisionState, key: string, revision?: number): KvEntry | undefined {
  const rev = resolveReadRevision(state, revision);
  if (rev === state.revision) {
    const row = st.getKv.get(key);
    return row === undefined || row.deleted === 1 ? undefined : entryOf(row);
  }
  // No kv row at all: any tombstone it had is at or below the compacted revision, so absent at rev too.
  const meta = st.getKvMeta.get(key);
  return meta === undefined ? undefined : entryAt(st, meta, rev);
}

/** kv rows read per step of a list at an older revision. */
const LIST_AT_CHUNK = 500;

export function readList(st: Statements, state: RevisionState, prefix: string, opts: KvListOptions = {}): KvListResult {
  const rev = resolveReadRevision(state, opts.revision);
  const range = listRange(prefix, opts.after);
  const limit = opts.limit !== undefined && opts.limit > 0 ? opts.limit : 0;
  // One extra entry tells whether more follow without a second query.
  const want = limit === 0 ? Infinity : limit + 1;
  let entries: KvEntry[];
  if (rev === state.revision) {
    const stmt = range.afterKey ? st.listAfter : st.listFrom;
    entries = stmt.all(range.low, range.high, limit === 0 ? -1 : want).map(entryOf);
  } else {
    entries = listAt(st, { low: range.low, afterKey: range.afterKey, high: range.high, rev, want });
  }
  const more = limit !== 0 && entries.length > limit;
  if (more) entries.length = limit;
  if (!more) return { entries, revision: rev, more };
  // The keys after this page, as etcd's range count gives them: known cheaply for
  // the current state (an index count); a page of an older revision leaves it unknown.
  const remaining = rev === state.revision ? st.countAfter.get(entries[entries.length - 1]!.key, range.high)!.n : undefined;
  return { entries, revision: rev, more, ...(remaining === undefined ? {} : { remaining }) };
}

/**
 * Walks kv (tombstones included) in key order, in chunks, since keys absent at
 * `rev` do not count towards the limit.
 */
function listAt(
  st: Statements,
  q: { low: string; afterKey: boolean; high: string; rev: number; want: number },
): KvEntry[] {
  const entries: KvEntry[] = [];
  let low = q.low;
  let afterKey = q.afterKey;
  for (;;) {
    const rows = (afterKey ? st.listMetaAfter : st.listMetaFrom).all(low, q.high, LIST_AT_CHUNK);
    for (const meta of rows) {
      const entry = entryAt(st, meta, q.rev);
      if (entry !== undefined && entries.push(entry) >= q.want) return entries;
    }
    if (rows.length < LIST_AT_CHUNK) return entries;
    low = rows[rows.length - 1]!.key;
    afterKey = true;
  }
}

export function readCount(st: Statements, prefix: string): number {
  const range = listRange(prefix, undefined);
  return st.count.get(range.low, range.high)!.n;
}
