// CEL benchmarks (issue #12), on one core, every figure measured in this run:
// - evaluations/s of the compiled typical CRD rule against the target of
//   200,000/s (ratio >= 1.00) and, report-only, against the same check written
//   as a plain JavaScript function (what the whole CEL machinery costs);
// - a repeated compile served from the cache against a fresh compile (>= 100x);
// - the three candidate libraries on the same rule, report-only (docs/cel.md).
import { Environment } from '@marcbachmann/cel-js';
import * as buf from '@bufbuild/cel';
import * as chromegg from 'cel-js';
import { RE2JS } from 're2js';
import { createCelEnvironment, ruleVariables } from '../src/cel/index.js';
import { compileStructural } from '../src/schema/structural/index.js';
import { paired, ratioRow, type Bench, type BenchRow } from './lib.js';

const AREA = 'cel';
const RULE = "self.replicas <= self.maxReplicas && self.name.matches('^[a-z]+$')";
const NAMES = ['web', 'frontend', 'api', 'db'];
const SCHEMA = compileStructural({
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    name: { type: 'string', maxLength: 63 },
  },
});

/** Calls per second of `op` over `n` calls (synchronous: CEL evaluation never awaits). */
function rate(n: number, op: (i: number) => unknown): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) op(i);
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const measure = (n: number, op: (i: number) => unknown) => async (): Promise<number> => rate(n, op);

function objects(): Array<{ replicas: number; maxReplicas: number; name: string }> {
  return NAMES.map((name, i) => ({ replicas: i + 1, maxReplicas: 5, name }));
}

async function typicalRule(): Promise<BenchRow[]> {
  const env = createCelEnvironment({ variables: ruleVariables(SCHEMA) });
  const program = env.compile(RULE);
  const objs = objects();
  const kapi = (i: number): unknown => program.evaluate({ self: objs[i & 3] });
  const re = /^[a-z]+$/;
  const plain = (i: number): unknown => {
    const o = objs[i & 3]!;
    return o.replicas <= o.maxReplicas && re.test(o.name);
  };
  rate(50_000, kapi);
  const best = await paired(5, measure(2_000_000, plain), measure(200_000, kapi));
  return [
    ratioRow({ area: AREA, name: 'typical rule, evaluations (1 core)', baselineName: 'issue target 200,000/s', baseline: 200_000, measured: best.measured, unit: 'evals/s', minRatio: 1 }),
    ratioRow({ area: AREA, name: 'typical rule, evaluations (1 core)', baselineName: 'same check as a JS function', baseline: best.baseline, measured: best.measured, unit: 'evals/s' }),
  ];
}

async function compileCache(): Promise<BenchRow[]> {
  let n = 0;
  // A fresh environment compiles every time; the shared one answers from its cache.
  const fresh = (): unknown => createCelEnvironment({ variables: ruleVariables(SCHEMA) }).compile(`${RULE} && ${n++ % 7} >= 0`);
  const shared = createCelEnvironment({ variables: ruleVariables(SCHEMA) });
  shared.compile(RULE);
  const cached = (): unknown => shared.compile(RULE);
  const best = await paired(3, measure(300, fresh), measure(200_000, cached));
  return [ratioRow({ area: AREA, name: 'repeated compile (cache hit)', baselineName: 'fresh compile', unit: 'compiles/s', ...best, minRatio: 100 })];
}

/** The three libraries compared in docs/cel.md, each on its own fastest path for the rule. */
async function libraries(): Promise<BenchRow[]> {
  const objs = objects();
  const marcEnv = new Environment({ unlistedVariablesAreDyn: true });
  const marc = marcEnv.parse(RULE);
  const marcObjs = objs.map((o) => ({ ...o, replicas: BigInt(o.replicas), maxReplicas: BigInt(o.maxReplicas) }));
  const re2Cache = new Map<string, { test(s: string): boolean }>();
  const bufEnv = buf.celEnv({
    re2: {
      compile(p: string) {
        let m = re2Cache.get(p);
        if (m === undefined) {
          const r = RE2JS.compile(p);
          m = { test: (s: string) => r.matcher(s).find() };
          re2Cache.set(p, m);
        }
        return m;
      },
    },
  });
  const bufPlan = buf.plan(bufEnv, buf.parse(RULE));
  // cel-js (ChromeGG) has no method-call extension point: `matches` is a global custom function.
  const cg = chromegg.parse("self.replicas <= self.maxReplicas && matches(self.name, '^[a-z]+$')");
  if (!cg.isSuccess) throw new Error('cel-js could not parse the rule');
  const cgFns = { matches: (s: string, p: string) => RE2JS.compile(p).matcher(s).find() };
  const runs: Array<[string, (i: number) => unknown]> = [
    ['@marcbachmann/cel-js 8.0.0', (i) => marc({ self: marcObjs[i & 3] })],
    ['@bufbuild/cel 0.6.1 (re2js)', (i) => bufPlan({ self: marcObjs[i & 3] })],
    ['cel-js 0.8.2', (i) => chromegg.evaluate(cg.cst, { self: objs[i & 3] }, cgFns)],
  ];
  const rows: BenchRow[] = [];
  for (const [name, op] of runs) {
    rate(20_000, op);
    let best = 0;
    for (let r = 0; r < 3; r++) best = Math.max(best, rate(100_000, op));
    rows.push(ratioRow({ area: AREA, name: `typical rule, ${name}`, baselineName: 'issue target 200,000/s', baseline: 200_000, measured: best, unit: 'evals/s' }));
  }
  return rows;
}

export const bench: Bench = {
  name: 'cel',
  async run() {
    return [...(await typicalRule()), ...(await compileCache()), ...(await libraries())];
  },
};
