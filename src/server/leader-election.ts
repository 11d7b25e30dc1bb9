// Leader election for the in-process controllers, as kube-controller-manager's
// --leader-elect (on by default) does with client-go's leaderelection over a Lease,
// kube-system/kube-controller-manager: replicas on one etcd run the controllers in
// one of them at a time, so two configurations that disagree (their own CAs in
// kube-root-ca.crt, different --controllers) cannot take turns rewriting objects.
// client-go's rules: a lease held by another is taken only after it went
// unchanged for a lease duration *by our own clock* (no trust in the other's
// clock); the leader renews every retry period and gives the controllers up when
// no renewal succeeded within the renew deadline. Unlike kube-controller-manager,
// which exits on a lost lease, kapi keeps serving and becomes a candidate again;
// and it releases the lease on shutdown so the other replica takes over at once.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import type { ControllerLogger } from './controller-runner.js';

const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' } as const;

/** kube-controller-manager's --leader-elect-* defaults. */
export const LEADER_ELECTION_DEFAULTS = {
  namespace: 'kube-system',
  name: 'kube-controller-manager',
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
} as const;

export interface LeaderElectionOptions {
  readonly registry: Registry;
  readonly logger: ControllerLogger;
  /** What runs while this replica leads; its stop() is called when it stops leading. */
  readonly lead: () => { stop(): void };
  readonly namespace?: string;
  readonly name?: string;
  /** Default: `<hostname>_<uuid>`, as kube-controller-manager's. */
  readonly identity?: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
  readonly now?: () => Date;
}

export interface LeaderElector {
  readonly identity: string;
  isLeader(): boolean;
  /** Stops what runs, ends the loop and, when leading, releases the lease (bounded by one request). */
  stop(): Promise<void>;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** A MicroTime as kube writes it: RFC 3339 with six fractional digits. */
function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function specOf(lease: KubeObject | undefined): LeaseSpec {
  const spec = (lease as { spec?: unknown } | undefined)?.spec;
  return spec !== null && typeof spec === 'object' ? (spec as LeaseSpec) : {};
}

export function startLeaderElection(opts: LeaderElectionOptions): LeaderElector {
  const store = opts.registry.store(LEASES);
  const at = { namespace: opts.namespace ?? LEADER_ELECTION_DEFAULTS.namespace, name: opts.name ?? LEADER_ELECTION_DEFAULTS.name };
  const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
  const leaseMs = opts.leaseDurationMs ?? LEADER_ELECTION_DEFAULTS.leaseDurationMs;
  const renewDeadlineMs = opts.renewDeadlineMs ?? LEADER_ELECTION_DEFAULTS.renewDeadlineMs;
  const retryMs = opts.retryPeriodMs ?? LEADER_ELECTION_DEFAULTS.retryPeriodMs;
  const now = opts.now ?? (() => new Date());
  const leaseSeconds = Math.ceil(leaseMs / 1000);

  // The record last seen and when (our clock): another holder's lease expires leaseMs after it stopped changing.
  let observedRecord = '';
  let observedAt = 0;
  let running: { stop(): void } | undefined;
  let lastRenewal = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  /** One round of client-go's tryAcquireOrRenew: true when we hold the lease afterwards. */
  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const t = now();
    let current: KubeObject | undefined;
    try {
      current = await store.get(at);
    } catch (err) {
      if (!(isStatusError(err) && err.reason === 'NotFound')) throw err;
    }
    if (current === undefined) {
      const spec: LeaseSpec = { holderIdentity: identity, leaseDurationSeconds: leaseSeconds, acquireTime: microTime(t), renewTime: microTime(t), leaseTransitions: 0 };
      await store.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: at.name }, spec } as KubeObject, { namespace: at.namespace });
      return true;
    }
    const spec = specOf(current);
    const record = JSON.stringify([spec.holderIdentity, spec.renewTime, spec.acquireTime, spec.leaseTransitions, spec.leaseDurationSeconds]);
    if (record !== observedRecord) {
      observedRecord = record;
      observedAt = t.getTime();
    }
    const heldByOther = spec.holderIdentity !== undefined && spec.holderIdentity !== '' && spec.holderIdentity !== identity;
    const theirDurationMs = (typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : leaseSeconds) * 1000;
    if (heldByOther && observedAt + theirDurationMs > t.getTime()) return false;
    const ours = spec.holderIdentity === identity;
    const next: LeaseSpec = {
      ...spec,
      holderIdentity: identity,
      leaseDurationSeconds: leaseSeconds,
      renewTime: microTime(t),
      acquireTime: ours && spec.acquireTime !== undefined ? spec.acquireTime : microTime(t),
      leaseTransitions: (spec.leaseTransitions ?? 0) + (ours ? 0 : 1),
    };
    // The read resourceVersion makes a concurrent taker's write a Conflict: one wins.
    await store.update({ ...current, spec: next } as KubeObject, at);
    return true;
  };

  const startLeading = () => {
    if (running !== undefined) return;
    opts.logger.info({ lease: `${at.namespace}/${at.name}`, identity }, 'leader election: became leader; starting controllers');
    running = opts.lead();
  };
  const stopLeading = (why: string) => {
    if (running === undefined) return;
    opts.logger.warn({ lease: `${at.namespace}/${at.name}`, identity, why }, 'leader election: stopped leading; stopping controllers');
    running.stop();
    running = undefined;
  };

  const round = async () => {
    let held = false;
    try {
      held = await tryAcquireOrRenew();
    } catch (err) {
      // Conflict (another replica wrote first), etcd unavailable: the next round tries again.
      if (!(isStatusError(err) && (err.reason === 'Conflict' || err.reason === 'AlreadyExists'))) {
        opts.logger.warn({ err, lease: `${at.namespace}/${at.name}` }, 'leader election: lease request failed');
      }
    }
    if (stopped) return;
    const t = now().getTime();
    if (held) {
      lastRenewal = t;
      startLeading();
    } else if (running !== undefined && t - lastRenewal >= renewDeadlineMs) {
      // Before the lease (longer than the deadline) can look expired to anyone else.
      stopLeading('no renewal within the renew deadline');
    }
  };

  const schedule = () => {
    timer = setTimeout(() => {
      void round().finally(() => {
        if (!stopped) schedule();
      });
    }, retryMs);
    timer.unref();
  };
  void round().finally(() => {
    if (!stopped) schedule();
  });

  return {
    identity,
    isLeader: () => running !== undefined,
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      const wasLeading = running !== undefined;
      stopLeading('shutting down');
      if (!wasLeading) return;
      // client-go's release: an empty holder with a 1 s duration, so a candidate need not wait out ours.
      try {
        const current = await store.get(at);
        if (specOf(current).holderIdentity !== identity) return;
        const t = microTime(now());
        await store.update({ ...current, spec: { ...specOf(current), holderIdentity: '', leaseDurationSeconds: 1, renewTime: t, acquireTime: t } } as KubeObject, at);
      } catch (err) {
        opts.logger.warn({ err }, 'leader election: releasing the lease failed; it expires on its own');
      }
    },
  };
}
