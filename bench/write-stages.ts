// The stages of a create, one by one, for issue #10's realistic Deployment (and
// the 2 KiB ConfigMap beside it): CPU µs per call and heap bytes allocated per
// call. Not a row of `npm run bench`: a tool for working on the write path, run
// as `node dist/bench/write-stages.js` (it measures bytes in a child started
// with the V8 flags that needs). Allocation is measured with a young generation large enough that no
// collection runs inside the measured loop, so the figure is exact and does not
// depend on the machine's load, unlike the µs; on a create every allocated byte
// is also paid again by the scavenger, so a stage that allocates nothing is
// cheaper in the server than its µs alone say.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { deployments } from '../src/apis/apps/v1/deployments.js';
import { configMaps } from '../src/apis/core/v1/config-maps.js';
import { decodeJson } from '../src/codecs/json.js';
import { checkDefinitionSchema } from '../src/endpoints/installer.js';
import type { ResourceDefinition } from '../src/registry/define-resource.js';
import type { WriteContext } from '../src/registry/strategy.js';
import { validateObjectMeta } from '../src/registry/validation/object-meta.js';
import { schemaValidatorFor } from '../src/registry/validation/schema.js';
import type { KubeObject } from '../src/schema/object.js';
import { deepFreeze, encodeForStorage, jsonObjectCodec, storedAnswer } from '../src/storage/object-store/codec.js';
import { benchDeployment } from './support/deployment-body.js';

const FLAGS = ['--expose-gc', '--min-semi-space-size=256', '--max-semi-space-size=256'];
const SAMPLES = 200;

const CTX: WriteContext = {
  operation: 'CREATE',
  user: { username: 'bench', groups: ['system:masters'] },
  now: new Date('2026-01-01T00:00:00Z'),
  namespace: 'default',
  dryRun: false,
  subresource: '',
  requestVersion: { group: 'apps', version: 'v1' },
};

interface Stage {
  readonly name: string;
  /** Called with a fresh defaulted object (its own copy) when `fresh`, else a shared one. */
  readonly run: (obj: KubeObject, body: Buffer) => unknown;
  /** The stage changes its input (defaults, freeze): every call gets an object of its own. */
  readonly fresh?: 'parsed' | 'defaulted';
}

function stagesFor(def: ResourceDefinition): Stage[] {
  const strategy = def.strategy;
  const schema = schemaValidatorFor(def.schema);
  return [
    { name: 'decode (JSON.parse, depth, duplicates)', run: (_o, body) => decodeJson(body, { strictErrors: [] }) },
    { name: 'typed walk (unknown fields, types)', run: (o) => checkDefinitionSchema(def, o) },
    { name: 'defaults', run: (o) => strategy.defaults?.(o, CTX), fresh: 'parsed' },
    { name: 'schema validation', run: (o) => schema.validate(o) },
    { name: 'ObjectMeta validation', run: (o) => validateObjectMeta(o, { namespaced: true, nameValidation: def.nameValidation, isCreate: true }) },
    { name: 'kind validation', run: (o) => strategy.validate?.(o, CTX) },
    { name: 'warnings', run: (o) => strategy.warnings?.(o, undefined, CTX) },
    { name: 'encode: stored bytes and the JSON answer', run: (o) => encodeBoth(o) },
    { name: 'deep freeze', run: (o) => deepFreeze(o), fresh: 'defaulted' },
  ];
}

/** What a create encodes: the stored bytes, and its answer from the same pieces (object-store/decoded.ts). */
function encodeBoth(obj: KubeObject): Buffer {
  const { value, json } = encodeForStorage(jsonObjectCodec, obj);
  return storedAnswer(json!, value, JSON.stringify({ ...obj.metadata, resourceVersion: '12345' }));
}

/** What a create stores: the body, defaulted, with the metadata the registry sets. */
function defaulted(def: ResourceDefinition, body: Buffer): KubeObject {
  const obj = JSON.parse(body.toString()) as KubeObject;
  def.strategy.defaults?.(obj, CTX);
  Object.assign(obj.metadata, { uid: '0b1c9b1e-5a8e-4a57-a6a4-4d0d2d7a1c11', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' });
  return obj;
}

/** One stage over every body: the best of ten timed passes (µs per call), or the bytes one pass allocates. */
function measure(def: ResourceDefinition, bodies: readonly Buffer[], stage: Stage, what: 'micros' | 'bytes'): number {
  const shared = bodies.map((b) => defaulted(def, b));
  const inputs = (): KubeObject[] =>
    stage.fresh === undefined ? shared : bodies.map((b) => (stage.fresh === 'parsed' ? (JSON.parse(b.toString()) as KubeObject) : defaulted(def, b)));
  const sink: unknown[] = new Array(bodies.length);
  const pass = (objs: readonly KubeObject[]): void => {
    for (let i = 0; i < bodies.length; i++) sink[i] = stage.run(objs[i]!, bodies[i]!);
  };
  for (let r = 0; r < 40; r++) pass(inputs());
  if (what === 'bytes') {
    const objs = inputs();
    (globalThis as { gc?: () => void }).gc?.();
    const before = v8.getHeapStatistics().used_heap_size;
    pass(objs);
    return (v8.getHeapStatistics().used_heap_size - before) / bodies.length;
  }
  let micros = Infinity;
  for (let r = 0; r < 10; r++) {
    const objs = inputs();
    const t0 = process.cpuUsage();
    pass(objs);
    const d = process.cpuUsage(t0);
    micros = Math.min(micros, (d.user + d.system) / bodies.length);
  }
  return micros;
}

const KINDS: Array<{ name: string; def: ResourceDefinition; body: (i: number) => object }> = [
  { name: 'Deployment', def: deployments, body: (i) => benchDeployment(`web-${i}`) },
  {
    name: 'ConfigMap',
    def: configMaps,
    body: (i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' }, data: { payload: 'x'.repeat(2000) } }),
  },
];

/** Every (kind, stage) figure, in table order. */
function figures(what: 'micros' | 'bytes'): number[] {
  const out: number[] = [];
  for (const kind of KINDS) {
    const bodies = Array.from({ length: SAMPLES }, (_, i) => Buffer.from(JSON.stringify(kind.body(i))));
    for (const stage of stagesFor(kind.def)) out.push(measure(kind.def, bodies, stage, what));
  }
  return out;
}

function main(): void {
  // Bytes in a child with a young generation no pass fills (and gc exposed); time
  // here, with V8's usual heap, where the huge young generation's fresh pages
  // would be counted as the stages' cost.
  const child = spawnSync(process.execPath, [...FLAGS, process.argv[1]!, '--bytes'], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`write-stages --bytes failed: ${child.stderr}`);
  const bytes = JSON.parse(child.stdout) as number[];
  const micros = figures('micros');
  const lines = ['| kind | stage | CPU µs per call | heap bytes per call |', '|---|---|---:|---:|'];
  let i = 0;
  for (const kind of KINDS) {
    let sumMicros = 0;
    let sumBytes = 0;
    for (const stage of stagesFor(kind.def)) {
      sumMicros += micros[i]!;
      sumBytes += bytes[i]!;
      lines.push(`| ${kind.name} | ${stage.name} | ${micros[i]!.toFixed(1)} | ${Math.round(bytes[i]!)} |`);
      i++;
    }
    lines.push(`| ${kind.name} | **all stages** | **${sumMicros.toFixed(1)}** | **${Math.round(sumBytes)}** |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--bytes')) process.stdout.write(JSON.stringify(figures('bytes')));
  else main();
}
