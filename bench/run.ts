// `npm run bench`: runs every bench module and prints one markdown table (also
// written to bench/results.md). Select some with `npm run bench -- sqlite etcd`
// (a module runs when its name contains one of the words: storage-sqlite, storage-etcd,
// storage-objects, http, cel, watch). `--quick` makes shorter runs that only prove
// the rows work; their table is printed, not written to bench/results.md.
import { writeFileSync } from 'node:fs';
import { formatTable, type Bench, type BenchRow } from './lib.js';

// Each bench file exports `bench`; the table shows them in this order.
const modules: Array<() => Promise<{ bench: Bench }>> = [
  () => import('./storage-sqlite.js'),
  () => import('./storage-etcd.js'),
  () => import('./storage-objects.js'),
  () => import('./http.js'),
  () => import('./cel.js'),
  () => import('./watch-fanout.js'),
  () => import('./decode.js'),
  () => import('./watch-cache.js'),
  () => import('./write-path.js'),
  () => import('./watch-fanout-scale.js'),
  () => import('./watch-cache-memory.js'),
  () => import('./watch-cache-chunked-list.js'),
  () => import('./authz.js'),
  () => import('./schema-model.js'),
  () => import('./gzip.js'),
];

export async function main(args: readonly string[]): Promise<void> {
  const quick = args.includes('--quick');
  const filters = args.filter((a) => a !== '--quick');
  const rows: BenchRow[] = [];
  for (const load of modules) {
    const { bench } = await load();
    if (filters.length > 0 && !filters.some((f) => bench.name.includes(f))) continue;
    process.stderr.write(`bench: ${bench.name}${quick ? ' (quick)' : ''}\n`);
    rows.push(...(await bench.run({ quick })));
  }
  const table = formatTable(rows);
  if (!quick) writeFileSync(new URL('../../bench/results.md', import.meta.url), `${table}\n`);
  process.stdout.write(`${table}\n`);
}

await main(process.argv.slice(2));
