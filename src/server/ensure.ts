// "Ensured" objects (DESIGN "Start and stop"): what the server itself keeps in
// the cluster is created when absent, repaired when wrong and left alone when
// right, by a loop that reads first and treats every lost race — AlreadyExists on
// create, Conflict or NotFound on update — as news to read again. Any number of
// restarts and replicas converge on one object; the loop is bounded so a start
// can never spin forever.
import { isStatusError } from '../errors/status-error.js';
import type { KubeObject } from '../schema/object.js';

export type EnsureAction = 'created' | 'repaired' | 'unchanged';

export interface EnsureSpec {
  /** For errors: `service default/kubernetes`. */
  readonly what: string;
  /** The object as stored now; undefined when absent. */
  read(): Promise<KubeObject | undefined>;
  create(): Promise<unknown>;
  /**
   * When create fails with something other than AlreadyExists: 'retry' to read
   * again (the cause was dealt with), anything else rethrows.
   */
  onCreateError?(err: unknown): Promise<'retry' | 'fail'>;
  /** The object to write when `current` is wrong; undefined when it is right. */
  repair?(current: KubeObject): KubeObject | undefined;
  update?(next: KubeObject): Promise<unknown>;
  /**
   * Last step once the object is right (its allocation records, say): 'retry'
   * reads again (it changed the object's state or found it gone).
   */
  settle?(current: KubeObject): Promise<'retry' | 'done'>;
}

export interface EnsureResult {
  readonly object: KubeObject;
  /** What this call did: the first write it made, or 'unchanged'. */
  readonly action: EnsureAction;
}

export interface EnsureOptions {
  readonly maxRounds?: number;
  /** Injected in tests; defaults to a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isLostRace(err: unknown): boolean {
  return isStatusError(err) && (err.reason === 'AlreadyExists' || err.reason === 'Conflict' || err.reason === 'NotFound');
}

/** Jittered, growing pause after a lost race, so racing replicas fall out of step. */
export function backoffMs(round: number): number {
  return Math.min(500, 10 * 2 ** round) * (0.5 + Math.random());
}

export async function ensureObject(spec: EnsureSpec, opts: EnsureOptions = {}): Promise<EnsureResult> {
  const maxRounds = opts.maxRounds ?? 12;
  const sleep = opts.sleep ?? timerSleep;
  let action: EnsureAction = 'unchanged';
  let lastError: unknown;
  for (let round = 0; round < maxRounds; round++) {
    if (lastError !== undefined) await sleep(backoffMs(round));
    lastError = undefined;
    const current = await spec.read();
    try {
      if (current === undefined) {
        await spec.create();
        if (action === 'unchanged') action = 'created';
        continue;
      }
      const next = spec.repair?.(current);
      if (next !== undefined) {
        if (spec.update === undefined) throw new Error(`${spec.what}: repair without update`);
        await spec.update(next);
        if (action === 'unchanged') action = 'repaired';
        continue;
      }
      if ((await spec.settle?.(current)) === 'retry') continue;
      return { object: current, action };
    } catch (err) {
      if (isLostRace(err)) {
        lastError = err;
        continue;
      }
      if (current === undefined && spec.onCreateError !== undefined && (await spec.onCreateError(err)) === 'retry') continue;
      throw err;
    }
  }
  const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new Error(`${spec.what}: still changing after ${maxRounds} rounds${cause}`);
}
