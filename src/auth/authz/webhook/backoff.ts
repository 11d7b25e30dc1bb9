// The retry loop around one webhook call: apimachinery's wait.Backoff stepped by
// ExponentialBackoffWithContext, as apiserver's util/webhook WithExponentialBackoff
// drives it. With kube's default (DefaultRetryBackoff: 500ms, factor 1.5, jitter
// 0.2, 5 steps) a failing webhook is called 5 times, sleeping ~0.5s, 0.75s,
// 1.1s and 1.7s (each stretched by up to 20%) in between. Sleeping and the
// jitter's randomness are injected so tests neither sleep nor guess.

/** wait.Backoff without Cap (the webhook backoffs set none). */
export interface Backoff {
  readonly durationMs: number;
  readonly factor: number;
  /** Each sleep is stretched by up to this fraction of itself (wait.Jitter). */
  readonly jitter: number;
  /** How many calls at most, the first included. */
  readonly steps: number;
}

/** k8s.io/apiserver/plugin/pkg/authorizer/webhook DefaultRetryBackoff (and genericoptions.DefaultAuthWebhookRetryBackoff). */
export const DEFAULT_RETRY_BACKOFF: Backoff = { durationMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

export interface RetryOptions {
  readonly backoff: Backoff;
  readonly shouldRetry: (err: unknown) => boolean;
  readonly sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1) (Math.random). */
  readonly random: () => number;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The sleep before call `attempt + 1` (attempt counts from 0): wait.Backoff.Step with wait.Jitter. */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number): number {
  const duration = backoff.factor === 0 ? backoff.durationMs : backoff.durationMs * backoff.factor ** attempt;
  return backoff.jitter > 0 ? duration + duration * random() * backoff.jitter : duration;
}

/**
 * Calls `fn` until it succeeds, fails with an error `shouldRetry` refuses, or
 * the steps run out; then throws that last error (kube returns the webhook's
 * own error rather than the loop's timeout). No steps at all is kube's
 * "timed out waiting for the condition".
 */
export async function withExponentialBackoff<T>(fn: () => Promise<T>, opts: RetryOptions): Promise<T> {
  if (opts.backoff.steps < 1) throw new Error('webhook call failed: timed out waiting for the condition');
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!opts.shouldRetry(err) || attempt + 1 >= opts.backoff.steps) throw err;
      await opts.sleep(backoffDelay(opts.backoff, attempt, opts.random));
    }
  }
}
