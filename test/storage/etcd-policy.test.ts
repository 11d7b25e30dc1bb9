// The etcd3 host breaker: only connection failures count, an answer from etcd
// closes it, and after the pause one probe decides. Driven with a fake clock.
import { GRPCResourceExhastedError, GRPCUnavailableError } from 'etcd3';
import { describe, expect, test } from 'vitest';
import { HostUnavailableError } from '../../src/storage/etcd/errors.js';
import { createHostBreaker } from '../../src/storage/etcd/policy.js';

type Outcome = 'ok' | 'unavailable' | 'exhausted';
type Result = 'ok' | 'unavailable' | 'exhausted' | 'refused';

interface Step {
  /** What etcd would do if the call got through. */
  readonly etcd: Outcome;
  /** Milliseconds the fake clock advances before the call. */
  readonly advanceMs?: number;
}

const cases: Array<{ name: string; steps: Step[]; want: Result[] }> = [
  {
    name: 'oversized responses never open it',
    steps: [{ etcd: 'exhausted' }, { etcd: 'exhausted' }, { etcd: 'exhausted' }, { etcd: 'exhausted' }, { etcd: 'ok' }],
    want: ['exhausted', 'exhausted', 'exhausted', 'exhausted', 'ok'],
  },
  {
    name: 'three connection failures open it; calls are refused until the pause ends',
    steps: [{ etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'ok' }, { etcd: 'ok', advanceMs: 500 }, { etcd: 'ok' }],
    want: ['unavailable', 'unavailable', 'unavailable', 'refused', 'ok', 'ok'],
  },
  {
    name: 'a failed probe reopens it at once',
    steps: [{ etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'unavailable', advanceMs: 500 }, { etcd: 'ok' }],
    want: ['unavailable', 'unavailable', 'unavailable', 'unavailable', 'refused'],
  },
  {
    name: 'any answer from etcd resets the failure count',
    steps: [{ etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'exhausted' }, { etcd: 'unavailable' }, { etcd: 'unavailable' }, { etcd: 'ok' }],
    want: ['unavailable', 'unavailable', 'exhausted', 'unavailable', 'unavailable', 'ok'],
  },
];

describe('etcd host breaker', () => {
  for (const c of cases) {
    test(c.name, async () => {
      let now = 0;
      const breaker = createHostBreaker({ failureThreshold: 3, halfOpenAfterMs: 500, now: () => now });
      const got: Result[] = [];
      for (const step of c.steps) {
        now += step.advanceMs ?? 0;
        try {
          await breaker.execute(() => {
            if (step.etcd === 'unavailable') throw new GRPCUnavailableError('14 UNAVAILABLE: No connection established');
            if (step.etcd === 'exhausted') throw new GRPCResourceExhastedError('8 RESOURCE_EXHAUSTED: too large');
            return 'ok';
          });
          got.push('ok');
        } catch (err) {
          got.push(
            err instanceof HostUnavailableError ? 'refused' : err instanceof GRPCUnavailableError ? 'unavailable' : 'exhausted',
          );
        }
      }
      expect(got).toEqual(c.want);
    });
  }
});
