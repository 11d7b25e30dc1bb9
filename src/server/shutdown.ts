// Graceful termination, in kube-apiserver's order (its genericapiserver
// shutdown: ShutdownInitiated -> AfterShutdownDelayDuration ->
// NotAcceptingNewRequest -> InFlightRequestsDrained -> storage closed): /readyz
// fails at once, every request is still served for --shutdown-delay-duration,
// then the listener closes and in-flight requests drain, watches end, and
// storage closes. Every step after the delay has its own bound, and main.ts
// keeps a last-resort timer over the whole sequence, so a stuck client, a
// handshake that never completes or an unreachable etcd can hold the process
// only for a known time.

/** The bounds of each step, in milliseconds. */
export interface ShutdownBounds {
  /** --shutdown-delay-duration. */
  readonly delayMs: number;
  /** How long in-flight requests may take to finish once the listener is closed. */
  readonly drainMs: number;
  /** Each of: closing the HTTP server after the drain, closing storage. */
  readonly closeMs: number;
}

/** The most a drain waits, whatever --request-timeout says. */
export const MAX_DRAIN_MS = 60_000;
export const CLOSE_MS = 5_000;
/** Slack for the last-resort timer beyond the sum of the steps. */
const SLACK_MS = 5_000;

/**
 * A request cannot usefully outlive --request-timeout (the timeout filter answers
 * 504 by then), so the drain waits that long, capped; 0 (no timeout) gets the cap.
 */
export function shutdownBounds(opts: { shutdownDelayMs: number; requestTimeoutMs: number }): ShutdownBounds {
  const drainMs = opts.requestTimeoutMs > 0 ? Math.min(opts.requestTimeoutMs, MAX_DRAIN_MS) : MAX_DRAIN_MS;
  return { delayMs: opts.shutdownDelayMs, drainMs, closeMs: CLOSE_MS };
}

/** When the last-resort timer fires: every step at its bound, plus slack. */
export function lastResortMs(bounds: ShutdownBounds): number {
  return bounds.delayMs + bounds.drainMs + 2 * bounds.closeMs + SLACK_MS;
}

export interface ShutdownStep {
  readonly name: string;
  /** undefined: the step has no bound of its own (a sleep, a synchronous call). */
  readonly boundMs?: number;
  run(): Promise<unknown> | unknown;
}

export interface ShutdownLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Runs the steps in order. A step that overruns its bound or throws is logged
 * and left behind: what follows (closing storage above all) still runs.
 */
export async function runShutdown(steps: readonly ShutdownStep[], logger: ShutdownLogger): Promise<{ readonly clean: boolean }> {
  let clean = true;
  for (const step of steps) {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = Promise.resolve().then(() => step.run());
      if (step.boundMs === undefined) await work;
      else {
        const overran = new Promise<'overran'>((resolve) => {
          timer = setTimeout(() => resolve('overran'), step.boundMs);
        });
        if ((await Promise.race([work, overran])) === 'overran') {
          clean = false;
          // The step's promise may still settle later; nobody waits for it.
          work.catch(() => undefined);
          logger.warn({ step: step.name, boundMs: step.boundMs }, 'shutdown step did not finish in time; going on');
        }
      }
    } catch (err) {
      clean = false;
      logger.warn({ step: step.name, err }, 'shutdown step failed; going on');
    } finally {
      clearTimeout(timer);
    }
    const ms = Date.now() - started;
    if (ms >= 1000) logger.info({ step: step.name, ms }, 'shutdown step done');
  }
  return { clean };
}
