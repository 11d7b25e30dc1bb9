// `npm run fuzz -- --count N --seconds S [--seed X] [--concurrency C]
// [--timeout-ms T] [--only I] [--max-restarts R] [--url URL --kubeconfig PATH] [--keep]`:
// issue 8's fuzz harness (engine.ts runs it). Without --url it starts the real
// server from the build. Prints the seed first (the whole run replays from it;
// --only I sends input #I alone after setup), counts by status and one
// reproducing input per failure signature; exits 1 on any failure.
import { runFuzz } from './engine.js';
import { printReport, type FuzzOptions } from './report.js';

function parseArgs(argv: readonly string[]): FuzzOptions {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) args.set(a.slice(2, eq), a.slice(eq + 1));
    else if (a === '--keep') args.set('keep', 'true');
    else args.set(a.slice(2), argv[++i] ?? '');
  }
  const known = ['count', 'seconds', 'seed', 'concurrency', 'timeout-ms', 'only', 'max-restarts', 'url', 'kubeconfig', 'keep'];
  for (const k of args.keys()) if (!known.includes(k)) throw new Error(`unknown flag --${k} (known: ${known.map((x) => `--${x}`).join(' ')})`);
  const num = (k: string, dflt: number): number => {
    const v = args.get(k);
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} must be a non-negative number, got ${JSON.stringify(v)}`);
    return n;
  };
  if (args.has('url') !== args.has('kubeconfig')) throw new Error('--url and --kubeconfig go together');
  return {
    count: num('count', 20_000),
    seconds: num('seconds', 60),
    seed: num('seed', Math.floor(Math.random() * 2 ** 31)),
    concurrency: num('concurrency', 32),
    timeoutMs: num('timeout-ms', 10_000),
    only: args.has('only') ? num('only', 0) : undefined,
    maxRestarts: num('max-restarts', 5),
    url: args.get('url'),
    kubeconfig: args.get('kubeconfig'),
    keep: args.has('keep'),
  };
}

export async function main(argv: readonly string[]): Promise<number> {
  const report = await runFuzz(parseArgs(argv));
  printReport(report, (line) => console.log(line));
  return report.failures.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`fuzz: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(2);
    },
  );
}
