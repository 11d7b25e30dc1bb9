// The compiled schema model's own costs (issue #22), each measured in a fresh
// child process so nothing compiled earlier in the run is reused:
// - cold start: compiling the structural schema of every built-in kind (what the
//   server pays, lazily, the first time each kind is written), against JSON.parse
//   of the table's bytes (the table load every start already pays); target < 50 ms;
//   then, report-only, the typed decode's and schema validation's plans derived
//   from it (they were derived from raw JSON before, per kind, at about twice the
//   cost: docs/performance.md);
// - memory: heap held by those compiled schemas and plans after a full GC; target < 10 MB;
// - a 1 MiB custom-resource schema (many properties, nested objects, validations):
//   compile time against JSON.parse of the same bytes; target < 100 ms.
// Absolute targets are the issue's; the baselines say what the machine is doing.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtinDefinitions, type OpenApiSchema } from '../src/schema/definitions.js';
import { checkTyped } from '../src/schema/typed.js';
import { compileStructural, structuralDefinition } from '../src/schema/structural/index.js';
import { schemaValidatorFor } from '../src/registry/validation/schema.js';
import { compileRules } from '../src/cel/index.js';
import { path } from '../src/schema/field-errors.js';
import type { Bench, BenchRow } from './lib.js';

const AREA = 'schema';
const TABLE = fileURLToPath(new URL('../src/generated/openapi/definitions.json', import.meta.url));

/** Names of the definitions that are kinds (declare exactly one GVK). */
function kindNames(): string[] {
  return Object.keys(builtinDefinitions).filter((n) => builtinDefinitions[n]!['x-kubernetes-group-version-kind']?.length === 1);
}

/** A CRD-style schema of about `bytes` bytes: wide objects nested three deep, with value validations and rules. */
export function largeCrdSchema(bytes: number): OpenApiSchema {
  const leaf = (i: number): OpenApiSchema => ({
    type: 'object',
    description: `field group ${i} `.repeat(4),
    required: ['name'],
    properties: {
      name: { type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
      count: { type: 'integer', minimum: 0, maximum: 1000, default: 1 },
      mode: { type: 'string', enum: ['A', 'B', 'C'] },
      tags: { type: 'array', items: { type: 'string', maxLength: 32 }, maxItems: 16, 'x-kubernetes-list-type': 'set' },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port'], items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string' } } } },
    },
    'x-kubernetes-validations': [{ rule: 'self.count <= 1000', message: 'too many' }],
  });
  const properties: Record<string, OpenApiSchema> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const group: OpenApiSchema = { type: 'object', properties: { a: leaf(i), b: leaf(i + 1), nested: { type: 'object', properties: { c: leaf(i + 2) } } } };
    properties[`group${i}`] = group;
    size += JSON.stringify(group).length;
  }
  return { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { type: 'object', properties } } };
}

/** In the child: one measurement, printed as JSON. */
function child(what: string): void {
  const now = (): number => performance.now();
  if (what === 'cold') {
    const bytes = readFileSync(TABLE);
    const p0 = now();
    JSON.parse(bytes.toString('utf8'));
    const parse = now() - p0;
    const names = kindNames();
    const t0 = now();
    for (const name of names) structuralDefinition(builtinDefinitions, name);
    const compiled = now() - t0;
    const t1 = now();
    for (const name of names) {
      checkTyped(name, {}, builtinDefinitions);
      schemaValidatorFor({ name, definitions: builtinDefinitions });
    }
    process.stdout.write(JSON.stringify({ baseline: parse, measured: compiled, plans: now() - t1 }));
  } else if (what === 'memory') {
    const gc = (globalThis as { gc?: () => void }).gc!;
    const names = kindNames();
    // Everything but the compiling itself is loaded and warm: only what compiling keeps is counted.
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const name of names) {
      structuralDefinition(builtinDefinitions, name);
      checkTyped(name, {}, builtinDefinitions);
      schemaValidatorFor({ name, definitions: builtinDefinitions });
    }
    gc();
    gc();
    const after = process.memoryUsage().heapUsed;
    process.stdout.write(JSON.stringify({ baseline: before / 1e6, measured: (after - before) / 1e6 }));
  } else {
    const text = JSON.stringify(largeCrdSchema(1024 * 1024));
    const p0 = now();
    const raw = JSON.parse(text) as OpenApiSchema;
    const parse = now() - p0;
    const t0 = now();
    const root = compileStructural(raw);
    const compiled = now() - t0;
    const t1 = now();
    const rules = compileRules(root, { path: path('spec', 'versions').index(0).child('schema', 'openAPIV3Schema') });
    if (rules.errors.length > 0) throw new Error(`the bench schema's rules do not compile: ${rules.errors[0]!.message}`);
    process.stdout.write(JSON.stringify({ baseline: parse, measured: compiled, rules: now() - t1, ruleCount: rules.nodes.size }));
  }
}

interface ChildResult {
  readonly baseline: number;
  readonly measured: number;
  /** cold: the typed decode's and schema validation's plans, derived from the compiled schemas. */
  readonly plans?: number;
  /** large: compiling its x-kubernetes-validations (one rule per leaf object), and how many. */
  readonly rules?: number;
  readonly ruleCount?: number;
}

function measureInChild(what: string): ChildResult {
  const out = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', what], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`schema-model child ${what} failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as ChildResult;
}

/** Best (least disturbed) of `rounds` children. */
function best(what: string, rounds: number): ChildResult {
  let b = measureInChild(what);
  for (let r = 1; r < rounds; r++) {
    const m = measureInChild(what);
    if (m.measured < b.measured) b = m;
  }
  return b;
}

function absoluteRow(row: { name: string; baselineName: string; baseline: number; measured: number; unit: string; max: number }): BenchRow {
  const { max, ...rest } = row;
  return { area: AREA, ...rest, ratio: row.baseline === 0 ? 0 : row.measured / row.baseline, target: `< ${max} ${row.unit}`, pass: row.measured < max };
}

export const bench: Bench = {
  name: 'schema-model',
  async run({ quick }) {
    const rounds = quick ? 1 : 3;
    const cold = best('cold', rounds);
    const memory = best('memory', rounds);
    const large = best('large', rounds);
    return [
      absoluteRow({ name: `compile every built-in kind's structural schema (${kindNames().length} kinds, cold)`, baselineName: 'JSON.parse of the built-in table', baseline: cold.baseline, measured: cold.measured, unit: 'ms', max: 50 }),
      // Report-only: the plans existed before the compiled schema (they read raw JSON then, per kind).
      { area: AREA, name: 'then the typed-decode and validation plans of those kinds, derived from it', baselineName: 'JSON.parse of the built-in table', baseline: cold.baseline, measured: cold.plans ?? 0, unit: 'ms', ratio: (cold.plans ?? 0) / cold.baseline },
      absoluteRow({ name: 'heap kept by those compiled schemas and plans', baselineName: 'heap in use before (MB)', ...memory, unit: 'MB', max: 10 }),
      absoluteRow({ name: 'compile a 1 MiB custom-resource schema', baselineName: 'JSON.parse of the same bytes', baseline: large.baseline, measured: large.measured, unit: 'ms', max: 100 }),
      // Report-only: the target is the schema; the rules are CEL work on top (docs/performance.md).
      { area: AREA, name: `then compile its ${large.ruleCount ?? 0} x-kubernetes-validations rules`, baselineName: 'JSON.parse of the same bytes', baseline: large.baseline, measured: large.rules ?? 0, unit: 'ms', ratio: (large.rules ?? 0) / large.baseline },
    ];
  },
};

if (process.argv[2] === '--child') child(process.argv[3]!);
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await bench.run({ quick: false });
  for (const r of rows) process.stdout.write(`${r.name}: ${r.measured.toFixed(2)} ${r.unit} (baseline ${r.baselineName} ${r.baseline.toFixed(2)}) ${r.target === undefined ? '(report only)' : r.pass ? 'pass' : 'FAIL'}\n`);
}
