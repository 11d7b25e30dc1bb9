// The KV conformance suite: every backend (sqlite, etcd, memory) runs exactly
// these cases through its own test file with only a factory, so adding a case
// here runs it everywhere. A backend may skip a case only by its full name
// ("group > name") and with a reason; a skip without a reason, or naming no
// case, throws while the suite is being registered.
import { afterEach, beforeEach, describe, test } from 'vitest';
import type { KV } from '../kv.js';
import type { KvCase, KvCaseContext } from './kv-case.js';
import { crudCases } from './kv-cases-crud.js';
import { listCases } from './kv-cases-list.js';
import { watchCases } from './kv-cases-watch.js';
import { compactionCases } from './kv-cases-compaction.js';
import { concurrencyCases } from './kv-cases-concurrency.js';

export interface KvSkip {
  /** The case's full name, `group > name`, e.g. `watch > close stops delivery`. */
  readonly test: string;
  readonly reason: string;
}

export interface KvConformanceOptions {
  readonly skip?: readonly KvSkip[];
}

export const kvCases: readonly KvCase[] = [
  ...crudCases,
  ...listCases,
  ...watchCases,
  ...compactionCases,
  ...concurrencyCases,
];

export function kvCaseName(c: KvCase): string {
  return `${c.group} > ${c.name}`;
}

function checkedSkips(skip: readonly KvSkip[]): Map<string, string> {
  const known = new Set(kvCases.map(kvCaseName));
  const skips = new Map<string, string>();
  for (const s of skip) {
    if (typeof s.reason !== 'string' || s.reason.trim() === '') {
      throw new Error(`KV conformance: skipping "${s.test}" needs a reason`);
    }
    if (!known.has(s.test)) throw new Error(`KV conformance: no case named "${s.test}" to skip`);
    skips.set(s.test, s.reason);
  }
  return skips;
}

let suiteRun = 0;

export function describeKvConformance(
  name: string,
  factory: () => Promise<KV> | KV,
  opts: KvConformanceOptions = {},
): void {
  const skips = checkedSkips(opts.skip ?? []);
  // Unique prefixes per case let backends that share one server (etcd) run the
  // suite without a wipe between cases.
  const run = `${++suiteRun}-${Math.random().toString(36).slice(2, 8)}`;
  let caseNo = 0;

  describe(`KV conformance: ${name}`, () => {
    let kv: KV | undefined;
    beforeEach(async () => {
      kv = await factory();
    });
    afterEach(async () => {
      await kv?.close();
      kv = undefined;
    });

    for (const c of kvCases) {
      const full = kvCaseName(c);
      const reason = skips.get(full);
      if (reason !== undefined) {
        test.skip(`${full} (skipped: ${reason})`, () => undefined);
        continue;
      }
      const ns = `kvc-${run}-${++caseNo}`;
      test(
        full,
        async () => {
          const prefix = `/configmaps/${ns}/`;
          const ctx: KvCaseContext = {
            kv: kv!,
            prefix,
            siblingPrefix: `/configmaps/${ns}0/`,
            key: (n) => `${prefix}${n}`,
          };
          await c.run(ctx);
        },
        c.timeoutMs,
      );
    }
  });
}
