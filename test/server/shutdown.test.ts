// The shutdown runner: steps run in order; one that overruns its bound or throws
// is logged and left behind, and the rest (closing storage above all) still runs.
import { expect, test } from 'vitest';
import { lastResortMs, MAX_DRAIN_MS, runShutdown, shutdownBounds, type ShutdownStep } from '../../src/server/shutdown.js';

function recorder() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  return {
    lines,
    logger: {
      info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
      warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
    },
  };
}

test('a step that never finishes is left at its bound; later steps run', async () => {
  const ran: string[] = [];
  const steps: ShutdownStep[] = [
    { name: 'first', run: () => void ran.push('first') },
    { name: 'stuck', boundMs: 20, run: () => new Promise(() => undefined) },
    { name: 'failing', run: () => Promise.reject(new Error('boom')) },
    { name: 'close storage', boundMs: 1000, run: async () => void ran.push('close storage') },
  ];
  const { lines, logger } = recorder();
  expect(await runShutdown(steps, logger)).toEqual({ clean: false });
  expect(ran).toEqual(['first', 'close storage']);
  expect(lines.filter((l) => l.level === 'warn').map((l) => ({ msg: l.msg, step: (l.obj as { step: string }).step }))).toEqual([
    { msg: 'shutdown step did not finish in time; going on', step: 'stuck' },
    { msg: 'shutdown step failed; going on', step: 'failing' },
  ]);
});

test('steps that finish make a clean shutdown', async () => {
  const { logger } = recorder();
  expect(await runShutdown([{ name: 'a', boundMs: 1000, run: async () => undefined }, { name: 'b', run: () => undefined }], logger)).toEqual({ clean: true });
});

const boundsCases: Array<{ name: string; input: { shutdownDelayMs: number; requestTimeoutMs: number }; want: { drainMs: number; lastResortMs: number } }> = [
  { name: 'defaults: no delay, drain up to the one-minute request timeout', input: { shutdownDelayMs: 0, requestTimeoutMs: 60_000 }, want: { drainMs: 60_000, lastResortMs: 75_000 } },
  { name: 'a short request timeout shortens the drain', input: { shutdownDelayMs: 0, requestTimeoutMs: 3_000 }, want: { drainMs: 3_000, lastResortMs: 18_000 } },
  { name: 'a long request timeout is capped', input: { shutdownDelayMs: 0, requestTimeoutMs: 10 * 60_000 }, want: { drainMs: MAX_DRAIN_MS, lastResortMs: 75_000 } },
  { name: 'no request timeout: the cap', input: { shutdownDelayMs: 0, requestTimeoutMs: 0 }, want: { drainMs: MAX_DRAIN_MS, lastResortMs: 75_000 } },
  { name: 'the delay adds to the last-resort budget', input: { shutdownDelayMs: 15_000, requestTimeoutMs: 60_000 }, want: { drainMs: 60_000, lastResortMs: 90_000 } },
];
for (const c of boundsCases) {
  test(`bounds: ${c.name}`, () => {
    const bounds = shutdownBounds(c.input);
    expect({ drainMs: bounds.drainMs, lastResortMs: lastResortMs(bounds) }).toEqual(c.want);
  });
}
