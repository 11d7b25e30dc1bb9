// One fuzz run: start the server (unless given a URL), create the objects that
// updates and patches aim at, send inputs from many concurrent streams until the
// count or the time is used up, check every answer, and re-validate what got
// stored. A crash or a hang (the server stops answering /readyz) is recorded
// with the inputs in flight and the server's last lines, and the run goes on
// against a fresh server on a fresh data dir (a restart on the same data is
// issue 8's item 1, tested elsewhere), so one run lists every fault it finds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, credentialsFromKubeconfig, type Client, type Outcome } from './client.js';
import { encodeDoc } from './encode.js';
import { finalChecks, objectKey } from './final.js';
import { createGenerator } from './generate.js';
import type { FuzzInput } from './input.js';
import { checkOutcome, normalize, parseJson, type Violation } from './invariants.js';
import { FUZZ_NAMESPACE, isMap, KINDS, poolName, resourcePath, TARGETS_PER_KIND, type Json } from './kinds.js';
import { serializeInput, type FuzzOptions, type FuzzReport } from './report.js';
import { startServer, type FuzzServer } from './server.js';

interface Target {
  readonly epoch: number;
  readonly server: FuzzServer | undefined;
  readonly client: Client;
  /** Inputs sent to this target and not yet answered: the suspects when it dies. */
  readonly inFlight: Set<FuzzInput>;
  /** Inputs this target answered last, newest last: a poisoned process may die a few requests later. */
  readonly recent: FuzzInput[];
  /** Set once it crashed or hung: its end is recorded once (a killed hang also exits). */
  lost: boolean;
}

const NO_INPUT: FuzzInput = { index: -1, origin: 'run', method: '', path: '', headers: {}, body: undefined, transport: 'h2' };

/** Objects every update and patch seed aims at; created before the first input. */
async function setup(client: Client, log: (line: string) => void): Promise<void> {
  const create = async (path: string, doc: Json): Promise<void> => {
    const out = await client.send({ method: 'POST', path, transport: 'h2', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: encodeDoc(doc, 'json') }, 30_000);
    if (out.kind !== 'answer' || (out.status !== 201 && out.status !== 409)) log(`fuzz: setup: POST ${path}: ${out.kind === 'answer' ? `${out.status} ${out.body.toString().slice(0, 300)}` : out.kind}`);
  };
  await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FUZZ_NAMESPACE } });
  await Promise.all(KINDS.flatMap((kind) => Array.from({ length: TARGETS_PER_KIND }, (_, i) => create(resourcePath(kind), kind.make(poolName(kind, i))))));
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const runDir = mkdtempSync(join(tmpdir(), 'kapi-fuzz-'));
  const concurrency = opts.concurrency ?? 32;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxRestarts = opts.maxRestarts ?? 5;
  log(`fuzz: seed ${opts.seed} (replay: npm run fuzz -- --seed ${opts.seed} --count ${opts.count} --seconds ${opts.seconds}), run dir ${runDir}`);

  const counts: Record<string, number> = {};
  const failures = new Map<string, { count: number; detail: string; input: FuzzInput; writer?: FuzzInput }>();
  const fail = (v: Violation, input: FuzzInput, writer?: FuzzInput): void => {
    const seen = failures.get(v.signature);
    if (seen !== undefined) seen.count++;
    else failures.set(v.signature, { count: 1, detail: v.detail, input, writer });
  };
  let writers = new Map<string, FuzzInput>();
  let stopping = false;
  let restarts = 0;
  let target: Target;
  let replacing: Promise<void> | undefined;
  let giveUp = false;

  const boot = async (epoch: number): Promise<Target> => {
    const server = opts.url === undefined ? await startServer({ dataDir: join(runDir, `data-${epoch}`), logFile: join(runDir, `server-${epoch}.log`) }) : undefined;
    const creds = credentialsFromKubeconfig(opts.kubeconfig ?? server!.kubeconfig, opts.url ?? server!.url);
    const t: Target = { epoch, server, client: createClient(creds, { sessions: 2 }), inFlight: new Set(), recent: [], lost: false };
    void server?.exited.then(({ code, signal }) => lost(t, `crash: server exited (${signal ?? `code ${code}`})`));
    await setup(t.client, log);
    return t;
  };

  /** The target died or hung: record it once, and carry on against a fresh one while restarts and time remain. */
  const lost = (t: Target, signature: string): void => {
    if (stopping || t.lost || t.epoch !== target.epoch || replacing !== undefined) return;
    t.lost = true;
    const suspects = [...t.inFlight].map((i) => `#${i.index} ${i.origin}`);
    const lastAnswered = t.recent.slice(-20).reverse().map((i) => `#${i.index} ${i.origin}`);
    fail({ signature, detail: `in flight:\n  ${suspects.join('\n  ')}\nlast answered (newest first):\n  ${lastAnswered.join('\n  ')}\nserver log:\n${t.server?.tail(30) ?? ''}` }, [...t.inFlight][0] ?? t.recent[t.recent.length - 1] ?? NO_INPUT);
    if (opts.url !== undefined || restarts >= maxRestarts || performance.now() > deadline) {
      giveUp = true;
      return;
    }
    restarts++;
    log(`fuzz: ${signature}; restarting on a fresh data dir (${restarts}/${maxRestarts})`);
    replacing = (async () => {
      t.client.close();
      await t.server?.stop(1000);
      writers = new Map();
      target = await boot(t.epoch + 1);
      replacing = undefined;
    })();
  };

  /** One timeout: is the whole server stuck? A stuck server is killed and replaced like a crashed one. */
  let probing = false;
  const probeHang = async (t: Target): Promise<void> => {
    if (probing) return;
    probing = true;
    const out = await t.client.send({ method: 'GET', path: '/readyz', transport: 'h1', headers: {}, body: undefined }, 5000);
    probing = false;
    if (out.kind === 'answer' || t.epoch !== target.epoch) return;
    t.server?.stop(0).catch(() => undefined);
    lost(t, 'hang: the server stopped answering (killed)');
  };

  const started = performance.now();
  const deadline = started + opts.seconds * 1000;
  target = await boot(0);
  let sent = 0;
  const gen = createGenerator(opts.seed);
  const indices = opts.only === undefined ? undefined : [opts.only];
  let next = 0;

  const record = (t: Target, input: FuzzInput, out: Outcome): void => {
    sent++;
    const key = out.kind === 'answer' ? String(out.status) : out.kind;
    counts[key] = (counts[key] ?? 0) + 1;
    const v = checkOutcome(input, out);
    if (v !== undefined) fail(v, input);
    if (out.kind === 'timeout') void probeHang(t);
    if (out.kind === 'answer' && out.status >= 200 && out.status < 300 && !input.path.includes('dryRun=All')) {
      const obj = parseJson(out.body);
      if (isMap(obj) && isMap(obj.metadata)) writers.set(objectKey(obj.kind, obj.metadata.namespace, obj.metadata.name), input);
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (replacing !== undefined) await replacing;
      if (giveUp || performance.now() > deadline) return;
      const i = indices === undefined ? next++ : indices[next++];
      if (i === undefined || (indices === undefined && i >= opts.count)) return;
      const input = gen.input(i);
      const t = target;
      t.inFlight.add(input);
      let out = await t.client.send(input, deadlineFor(input, timeoutMs));
      // A connection cut is the server dying more often than not: give its exit a moment to show.
      if ((out.kind === 'no-answer' || (out.kind === 'answer' && out.cutOff !== undefined)) && t.server !== undefined) await Promise.race([t.server.exited, sleep(300)]);
      if (out.kind === 'no-answer' && t.server === undefined && /ECONNREFUSED/.test(out.error)) lost(t, 'crash: server unreachable (connection refused)');
      if (t.epoch !== target.epoch || replacing !== undefined || (t.server !== undefined && !t.server.isAlive())) {
        t.inFlight.delete(input);
        counts['lost-in-crash'] = (counts['lost-in-crash'] ?? 0) + 1;
        continue;
      }
      if (out.kind === 'no-answer' && input.transport === 'h2' && input.allowNoAnswer !== true) {
        // Another stream's fault can take a whole session down; the input gets its own verdict alone.
        const alone = await t.client.sendAlone(input, deadlineFor(input, timeoutMs));
        if (alone.kind === 'answer') {
          fail({ signature: `h2 stream lost with its session, answered alone: ${normalize(out.error)}`, detail: out.error }, input);
          out = alone;
        }
      }
      t.inFlight.delete(input);
      t.recent.push(input);
      if (t.recent.length > 64) t.recent.splice(0, 32);
      record(t, input, out);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (replacing !== undefined) await replacing;
  const durationMs = performance.now() - started;

  let checkedObjects = 0;
  if (!giveUp) {
    try {
      const final = await finalChecks(target.client, writers);
      checkedObjects = final.checkedObjects;
      for (const v of final.violations) fail(v.violation, v.input, v.writer);
    } catch (err) {
      fail({ signature: `final check failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, detail: String(err) }, NO_INPUT);
    }
  }
  stopping = true;
  target.client.close();
  await target.server?.stop();

  const report: FuzzReport = {
    seed: opts.seed, sent, durationMs, inputsPerSecond: Math.round(sent / (durationMs / 1000)), counts, checkedObjects, restarts, runDir,
    failures: [...failures].map(([signature, f]) => ({ signature, count: f.count, detail: f.detail, input: serializeInput(f.input), ...(f.writer === undefined ? {} : { writer: serializeInput(f.writer) }) })),
  };
  if (report.failures.length > 0) writeFileSync(join(runDir, 'failures.json'), JSON.stringify(report, null, 2));
  else if (opts.keep !== true) rmSync(runDir, { recursive: true, force: true });
  return report;
}

/**
 * A request's deadline grows with its body: a 2 MiB string that fails validation
 * is quoted whole in kube's Invalid answer (several MiB to encode and send), which
 * under 32 concurrent streams on two cores can pass a flat 10 s without any hang.
 * 10 s more per MiB of body.
 */
function deadlineFor(input: FuzzInput, baseMs: number): number {
  return baseMs + Math.ceil(((input.body?.length ?? 0) / (1024 * 1024)) * 10_000);
}
