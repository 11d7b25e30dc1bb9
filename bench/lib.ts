// Shared bench helpers: every figure is a ratio against a baseline measured in the
// same run on the same machine, so a noisy shared machine still gives a meaning.

export interface BenchRow {
  /** Table section, e.g. "storage/sqlite". */
  readonly area: string;
  readonly name: string;
  /** What the baseline is, e.g. "raw better-sqlite3 txn". */
  readonly baselineName: string;
  readonly baseline: number;
  readonly measured: number;
  /** ops/s, ms, MB … */
  readonly unit: string;
  /** measured / baseline (for "higher is better" units). */
  readonly ratio?: number;
  /** e.g. ">= 0.60"; absent for report-only rows. */
  readonly target?: string;
  readonly pass?: boolean;
}

export interface RunOptions {
  /**
   * `npm run bench -- --quick`: shorter runs (fewer requests, a shorter watch) that
   * prove the rows work end to end. Its figures are not for quoting.
   */
  readonly quick: boolean;
}

export interface Bench {
  readonly name: string;
  run(opts: RunOptions): Promise<BenchRow[]>;
}

/** Runs `op` with `concurrency` in flight until `total` ops are done; returns ops/s. */
export async function throughput(opts: {
  total: number;
  concurrency: number;
  op: (i: number) => Promise<unknown>;
}): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async (): Promise<void> => {
    while (next < opts.total) {
      const i = next++;
      await opts.op(i);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return opts.total / seconds;
}

/** Best of `rounds` runs: the least disturbed sample on a shared machine. */
export async function bestOf(rounds: number, measure: () => Promise<number>): Promise<number> {
  let best = 0;
  for (let r = 0; r < rounds; r++) best = Math.max(best, await measure());
  return best;
}

/**
 * Best of `rounds` for a baseline and the measured side, taken in turns
 * (baseline, measured, baseline, measured …) so a slow stretch of a shared
 * machine hits both sides of the ratio.
 */
export async function paired(
  rounds: number,
  baseline: () => Promise<number>,
  measured: () => Promise<number>,
): Promise<{ baseline: number; measured: number }> {
  let best = { baseline: 0, measured: 0 };
  for (let r = 0; r < rounds; r++) {
    const b = await baseline();
    const m = await measured();
    best = { baseline: Math.max(best.baseline, b), measured: Math.max(best.measured, m) };
  }
  return best;
}

/**
 * A ratio row; with `minRatio` it has a target and passes when the ratio reaches it.
 * `errors` (requests answered with the wrong status on either side) fail a row
 * with a target whatever its ratio: a fast error is not a fast write.
 */
export function ratioRow(row: Omit<BenchRow, 'ratio' | 'pass'> & { minRatio?: number; errors?: number }): BenchRow {
  const ratio = row.baseline === 0 ? 0 : row.measured / row.baseline;
  const { minRatio, errors = 0, ...rest } = row;
  return minRatio === undefined
    ? { ...rest, ratio }
    : { ...rest, ratio, target: `>= ${minRatio.toFixed(2)}`, pass: ratio >= minRatio && errors === 0 };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length));
  return sorted[i]!;
}

export function formatTable(rows: readonly BenchRow[]): string {
  const lines = [
    '| area | case | baseline | baseline value | kapi value | unit | ratio | target | pass |',
    '|---|---|---|---:|---:|---|---:|---|---|',
  ];
  const fmt = (n: number): string => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));
  for (const r of rows) {
    lines.push(
      `| ${r.area} | ${r.name} | ${r.baselineName} | ${fmt(r.baseline)} | ${fmt(r.measured)} | ${r.unit} | ${
        r.ratio === undefined ? '' : r.ratio.toFixed(2)
      } | ${r.target ?? ''} | ${r.pass === undefined ? '' : r.pass ? 'yes' : 'NO'} |`,
    );
  }
  return lines.join('\n');
}
