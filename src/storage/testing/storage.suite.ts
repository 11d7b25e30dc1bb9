// The object-level Storage conformance suite. Every Storage (the object store
// over memory, SQLite and etcd, and each of those behind the cacher) runs these
// same cases; a backend only supplies a factory and, for cases it cannot run,
// a skip with a reason. The cases live in storage-suite/ by area.
import { describe, test } from 'vitest';
import type { Storage } from '../storage.js';
import { crudCases } from './storage-suite/crud.cases.js';
import type { SuiteContext, SuiteGroup } from './storage-suite/harness.js';
import { listCases } from './storage-suite/list.cases.js';
import { updateCases } from './storage-suite/update.cases.js';
import { compactionCases, watchCases } from './storage-suite/watch.cases.js';

export interface StorageUnderTest {
  readonly storage: Storage;
  /** Forgets history at and before `revision` (kv.compact); compaction cases need it. */
  readonly compact?: (revision: number) => Promise<void>;
}

export interface StorageConformanceOptions {
  /** Cases this backend cannot run, by "<group> > <case name>", each with why. */
  readonly skip?: readonly { readonly test: string; readonly reason: string }[];
}

export const storageSuiteGroups: readonly SuiteGroup[] = [crudCases, listCases, updateCases, watchCases, compactionCases];

type Factory = () => Promise<Storage | StorageUnderTest> | Storage | StorageUnderTest;

function isUnderTest(v: Storage | StorageUnderTest): v is StorageUnderTest {
  return typeof (v as Partial<Storage>).get !== 'function' && 'storage' in v;
}

let nextPrefix = 0;

export function describeStorageConformance(name: string, factory: Factory, opts: StorageConformanceOptions = {}): void {
  const skips = new Map<string, string>();
  const known = new Set(storageSuiteGroups.flatMap((g) => g.cases.map((c) => `${g.group} > ${c.name}`)));
  for (const s of opts.skip ?? []) {
    // A skip must say why and must name a real case, so a rename cannot silently unskip or mis-skip.
    if (s.reason.trim() === '') throw new Error(`storage conformance ${name}: skip of "${s.test}" has no reason`);
    if (!known.has(s.test)) throw new Error(`storage conformance ${name}: skip names no case: "${s.test}"`);
    skips.set(s.test, s.reason);
  }

  describe(`storage conformance: ${name}`, () => {
    for (const group of storageSuiteGroups) {
      describe(group.group, () => {
        for (const c of group.cases) {
          const reason = skips.get(`${group.group} > ${c.name}`);
          if (reason !== undefined) {
            test.skip(`${c.name} (skipped: ${reason})`, () => {});
            continue;
          }
          test(c.name, async () => {
            const made = await factory();
            const sut = isUnderTest(made) ? made : { storage: made };
            const prefix = `/registry/conformance/t${nextPrefix++}-${process.pid}/`;
            const ctx: SuiteContext = {
              storage: sut.storage,
              compact: sut.compact,
              prefix,
              key: (n) => prefix + n,
            };
            try {
              await c.run(ctx);
            } finally {
              await sut.storage.close();
            }
          });
        }
      });
    }
  });
}
