// A writer process killed with SIGKILL mid-write must leave a store that reopens
// consistent (revision counter, current-state table and log agree; SQLite's own
// integrity check passes) and holds every write it acknowledged. The child runs
// our real backend as JS built by transpile-tree.ts (a plain `node` cannot load
// .ts); it prints a line per write only after the write's promise resolved.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { openSqliteKv } from '../../src/storage/sqlite/index.js';
import { transpileTree, type TranspiledTree } from './support/transpile-tree.js';

interface Ack {
  readonly op: 'create' | 'put' | 'delete';
  readonly key: string;
  readonly revision: number;
  readonly value: string;
}

let tree: TranspiledTree;
let dir: string;

beforeAll(() => {
  tree = transpileTree('test/storage/support/crash-writer.ts');
  dir = mkdtempSync(join(tmpdir(), 'kapi-sqlite-crash-'));
});
afterAll(() => {
  rmSync(tree.dir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the writer until it acknowledged `killAfter` writes, then SIGKILLs it. */
function runAndKill(dbPath: string, killAfter: number): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tree.entry, dbPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acks: Ack[] = [];
    let partial = '';
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const [tag, op, key, revision, value] = line.split(' ');
        if (tag !== 'ack') continue;
        acks.push({ op: op as Ack['op'], key: key!, revision: Number(revision), value: value! });
      }
      if (!killed && acks.length >= killAfter) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && killed) resolve(acks);
      else reject(new Error(`writer exited (code ${code}, signal ${signal}) after ${acks.length} acks: ${stderr}`));
    });
  });
}

interface LogRow {
  revision: number;
  key: string;
  type: number;
  value: Buffer;
  create_revision: number;
}

/** Replays the whole log from the first revision and compares it with the current-state table. */
function checkConsistency(dbPath: string): { revisions: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const log = db.prepare('SELECT revision, key, type, value, create_revision FROM log ORDER BY revision').all() as LogRow[];
    const state = new Map<string, { value: string; create: number; mod: number }>();
    for (let i = 0; i < log.length; i++) {
      const row = log[i]!;
      // No compaction ran: revisions are contiguous from the first write.
      expect(row.revision).toBe(2 + i);
      if (row.type === 2) state.delete(row.key);
      else state.set(row.key, { value: row.value.toString(), create: row.create_revision, mod: row.revision });
    }
    // Values live in the log row at each key's mod revision; tombstones are not current state.
    const current = db
      .prepare(
        `SELECT k.key, l.value, k.create_revision, k.mod_revision FROM kv k JOIN log l ON l.revision = k.mod_revision
          WHERE k.deleted = 0 ORDER BY k.key`,
      )
      .all() as Array<{
      key: string;
      value: Buffer;
      create_revision: number;
      mod_revision: number;
    }>;
    expect(current.map((r) => [r.key, r.value.toString(), r.create_revision, r.mod_revision])).toEqual(
      [...state.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, s]) => [k, s.value, s.create, s.mod]),
    );
    return { revisions: log.length };
  } finally {
    db.close();
  }
}

describe('sqlite KV survives SIGKILL of its writer', () => {
  test('killed twice mid-write: consistent, every acknowledged write present, writable again', async () => {
    const dbPath = join(dir, 'crash.db');
    const acks: Ack[] = [];
    for (const killAfter of [700, 1300]) {
      acks.push(...(await runAndKill(dbPath, killAfter)));
      checkConsistency(dbPath);
    }
    expect(acks.length).toBeGreaterThanOrEqual(2000);
    const kv = openSqliteKv({ path: dbPath });
    try {
      const current = await kv.currentRevision();
      expect(current).toBeGreaterThanOrEqual(Math.max(...acks.map((a) => a.revision)));
      for (const a of acks) {
        const at = await kv.get(a.key, { revision: a.revision });
        if (a.op === 'delete') {
          expect(at, `${a.key} deleted at ${a.revision}`).toBeUndefined();
        } else {
          expect({ value: at?.value.toString(), modRevision: at?.modRevision }, `${a.op} ${a.key} at ${a.revision}`).toEqual({
            value: a.value,
            modRevision: a.revision,
          });
        }
      }
      const next = await kv.create('/configmaps/crash/after', new TextEncoder().encode('x'));
      expect(next.revision).toBe(current + 1);
    } finally {
      await kv.close();
    }
    expect(checkConsistency(dbPath).revisions).toBeGreaterThan(acks.length - 1);
  }, 60_000);
});
