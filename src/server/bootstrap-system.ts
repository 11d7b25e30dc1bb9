// Objects kube-apiserver's own post-start hooks keep in the cluster, beyond
// bootstrap.ts's namespaces and kubernetes service:
// - kube-system/extension-apiserver-authentication: the client CA aggregated and
//   extension API servers trust (kube's clusterauthenticationtrust controller). kapi
//   has no --requestheader-* flags, so, as kube without a request-header CA, only
//   client-ca-file is written. Bundles other replicas published are kept and ours
//   is added (kube merges them the same way), so replicas with their own CAs agree.
// - the `kubernetes` ServiceCIDR (networking.k8s.io/v1) of --service-cluster-ip-range
//   with Ready=True, as kube's default-servicecidr controller sets it. The CIDRs are
//   immutable: a stored range that differs is left alone and logged, as kube does.
// - this server's identity Lease in kube-system (kube's APIServerIdentity): named
//   apiserver-<hash of the host name>, labelled with the identity and host name,
//   holder `<name>_<uuid>`, 3600 s duration, renewed every 10 s while running;
//   identity leases of servers gone for longer than their duration are deleted at
//   start and hourly (kube's identity lease garbage collector).
// All three are written through the registry and ensured (ensure.ts).
import { createHash, randomUUID } from 'node:crypto';
import { hostname as osHostname } from 'node:os';
import { isStatusError } from '../errors/status-error.js';
import type { Registry } from '../registry/registry.js';
import type { KubeObject } from '../schema/object.js';
import { unlessNotFound } from './bootstrap-scheduling.js';
import { ensureObject, type EnsureAction, type EnsureOptions } from './ensure.js';
import type { BootstrapLogger } from './bootstrap.js';

const CONFIG_MAPS = { group: '', version: 'v1', resource: 'configmaps' } as const;
const SERVICE_CIDRS = { group: 'networking.k8s.io', version: 'v1', resource: 'servicecidrs' } as const;
const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' } as const;

export const AUTHENTICATION_CONFIG_MAP = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;
export const DEFAULT_SERVICE_CIDR = 'kubernetes';
export const SERVICE_CIDR_READY_MESSAGE = 'Kubernetes default Service CIDR is ready';
/** kube's IdentityLeaseDurationSeconds and IdentityLeaseRenewIntervalPeriod. */
export const IDENTITY_LEASE_DURATION_SECONDS = 3600;
export const IDENTITY_LEASE_RENEW_MS = 10_000;
export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
/** kube's IdentityLeaseGCPeriod. */
const IDENTITY_LEASE_GC_MS = 3_600_000;

/** The certificates of a PEM bundle, each as one normalised block; anything else is dropped. */
export function pemCertificates(bundle: string): string[] {
  const blocks = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => {
    const body = b.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    const lines = body.match(/.{1,64}/g) ?? [];
    return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  });
}

/** kube's combineUniqueCertificates: what is stored first, then ours when missing, each once. */
export function mergeCaBundles(stored: string, ours: string): string {
  return [...new Set([...pemCertificates(stored), ...pemCertificates(ours)])].join('');
}

export interface SystemObjectsOptions {
  /** The client CA bundle (PEM) requests are authenticated against. */
  readonly clientCaPem: string;
  /** --service-cluster-ip-range, as parsed (its network form). */
  readonly serviceCIDR: string;
  readonly logger: BootstrapLogger;
  readonly ensure?: EnsureOptions;
  /** Injected in tests. */
  readonly now?: () => Date;
}

export interface SystemObjectsResult {
  readonly authentication: EnsureAction;
  readonly serviceCIDR: EnsureAction;
}

export async function bootstrapSystemObjects(registry: Registry, opts: SystemObjectsOptions): Promise<SystemObjectsResult> {
  const authentication = await ensureAuthenticationConfigMap(registry, opts);
  const serviceCIDR = await ensureDefaultServiceCIDR(registry, opts);
  return { authentication, serviceCIDR };
}

async function ensureAuthenticationConfigMap(registry: Registry, opts: SystemObjectsOptions): Promise<EnsureAction> {
  const store = registry.store(CONFIG_MAPS);
  const at = AUTHENTICATION_CONFIG_MAP;
  const result = await ensureObject(
    {
      what: `configmap ${at.namespace}/${at.name}`,
      read: () => unlessNotFound(store.get(at)),
      create: () =>
        store.create(
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: at.name }, data: { 'client-ca-file': mergeCaBundles('', opts.clientCaPem) } } as KubeObject,
          { namespace: at.namespace },
        ),
      repair: (current) => {
        const data = ((current as { data?: Record<string, unknown> }).data ?? {}) as Record<string, unknown>;
        const stored = typeof data['client-ca-file'] === 'string' ? data['client-ca-file'] : '';
        const merged = mergeCaBundles(stored, opts.clientCaPem);
        if (merged === stored) return undefined;
        return { ...current, data: { ...data, 'client-ca-file': merged } } as KubeObject;
      },
      update: (next) => store.update(next, at),
    },
    opts.ensure,
  );
  return result.action;
}

interface Condition {
  type?: unknown;
  status?: unknown;
}

async function ensureDefaultServiceCIDR(registry: Registry, opts: SystemObjectsOptions): Promise<EnsureAction> {
  const store = registry.store(SERVICE_CIDRS);
  const status = store.subresource('status');
  const now = opts.now ?? (() => new Date());
  let warned = false;
  const result = await ensureObject(
    {
      what: `servicecidr ${DEFAULT_SERVICE_CIDR}`,
      read: () => unlessNotFound(store.get({ name: DEFAULT_SERVICE_CIDR })),
      create: () =>
        store.create({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: DEFAULT_SERVICE_CIDR }, spec: { cidrs: [opts.serviceCIDR] } } as KubeObject),
      settle: async (current) => {
        const cidrs = (current as { spec?: { cidrs?: unknown } }).spec?.cidrs;
        if (!Array.isArray(cidrs) || cidrs.length !== 1 || cidrs[0] !== opts.serviceCIDR) {
          if (!warned) opts.logger.warn({ stored: cidrs, configured: opts.serviceCIDR }, 'the kubernetes ServiceCIDR does not match --service-cluster-ip-range; leaving it as it is');
          warned = true;
          return 'done';
        }
        const conditions = ((current as { status?: { conditions?: unknown } }).status?.conditions ?? []) as Condition[];
        const ready = Array.isArray(conditions) ? conditions.find((c) => c?.type === 'Ready') : undefined;
        // kube sets Ready=True when there is no Ready condition or it is Unknown; a False one is someone's word.
        if (ready !== undefined && ready.status !== 'Unknown') return 'done';
        const others = Array.isArray(conditions) ? conditions.filter((c) => c?.type !== 'Ready') : [];
        const condition = { type: 'Ready', status: 'True', lastTransitionTime: now().toISOString().replace(/\.\d+Z$/, 'Z'), reason: '', message: SERVICE_CIDR_READY_MESSAGE };
        await status!.update({ ...current, status: { conditions: [...others, condition] } } as KubeObject, { name: DEFAULT_SERVICE_CIDR });
        return 'retry';
      },
    },
    opts.ensure,
  );
  return result.action;
}

/** kube's APIServerID: "apiserver-" and the lower-case unpadded base32 of the first 16 bytes of sha256(hostname). */
export function apiserverIdentity(hostname: string): string {
  const hash = createHash('sha256').update(hostname).digest().subarray(0, 16);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of hash) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `apiserver-${out}`;
}

/** A MicroTime as kube writes it: RFC 3339 with six fractional digits. */
function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export interface IdentityLeaseOptions {
  readonly logger: BootstrapLogger;
  /** Default: the machine's host name. */
  readonly hostname?: string;
  readonly now?: () => Date;
  readonly renewMs?: number;
  readonly ensure?: EnsureOptions;
}

export interface IdentityLease {
  readonly name: string;
  readonly holderIdentity: string;
  /** Ends the renewals; the lease stays and expires (kube's GC removes expired ones). */
  stop(): void;
}

/**
 * Ensures this server's identity Lease and renews it every renewMs, as kube's
 * lease controller does: a renewal that finds the lease gone makes it again, one
 * that finds another holder takes it back (two replicas on one host share the
 * name, as they do in kube). A failed renewal is logged and tried again next time.
 */
export async function startIdentityLease(registry: Registry, opts: IdentityLeaseOptions): Promise<IdentityLease> {
  const store = registry.store(LEASES);
  const host = opts.hostname ?? osHostname();
  const name = apiserverIdentity(host);
  const holderIdentity = `${name}_${randomUUID()}`;
  const now = opts.now ?? (() => new Date());
  const labels = { [IDENTITY_LABEL]: 'kube-apiserver', 'kubernetes.io/hostname': host };
  const at = { namespace: 'kube-system', name };
  const wanted = (current: KubeObject | undefined): KubeObject =>
    ({
      ...(current ?? { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }),
      metadata: { ...(current?.metadata ?? { name }), labels: { ...(current?.metadata.labels ?? {}), ...labels } },
      spec: { ...((current as { spec?: object } | undefined)?.spec ?? {}), holderIdentity, leaseDurationSeconds: IDENTITY_LEASE_DURATION_SECONDS, renewTime: microTime(now()) },
    }) as KubeObject;
  const renew = async (): Promise<void> => {
    // One write per renewal: the create, or an update of whatever is stored (its
    // resourceVersion makes a concurrent change a Conflict, and ensure reads again).
    let written = false;
    await ensureObject(
      {
        what: `lease kube-system/${name}`,
        read: () => unlessNotFound(store.get(at)),
        create: async () => {
          await store.create(wanted(undefined), { namespace: at.namespace });
          written = true;
        },
        repair: (current) => (written ? undefined : wanted(current)),
        update: async (next) => {
          await store.update(next, at);
          written = true;
        },
      },
      opts.ensure,
    );
  };
  await renew();
  await collectExpiredIdentityLeases(registry, { keep: name, now: now() }).catch((err: unknown) => opts.logger.warn({ err }, 'identity lease: garbage collection failed'));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastGC = now().getTime();
  const schedule = () => {
    timer = setTimeout(() => {
      const gcDue = now().getTime() - lastGC >= IDENTITY_LEASE_GC_MS;
      if (gcDue) lastGC = now().getTime();
      renew().then(
        () => (gcDue ? collectExpiredIdentityLeases(registry, { keep: name, now: now() }).then(() => undefined) : undefined),
      ).then(
        () => undefined,
        (err: unknown) => opts.logger.warn({ err, lease: name }, 'identity lease: renewal failed; trying again'),
      ).finally(() => {
        if (!stopped) schedule();
      });
    }, opts.renewMs ?? IDENTITY_LEASE_RENEW_MS);
    timer.unref();
  };
  schedule();
  return {
    name,
    holderIdentity,
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

/**
 * Deletes the identity leases (label apiserver.kubernetes.io/identity=kube-apiserver)
 * of servers that stopped renewing more than a lease duration ago, as kube's
 * identity lease GC does; each delete is pinned to the resourceVersion it judged.
 * Answers the names it deleted.
 */
export async function collectExpiredIdentityLeases(registry: Registry, opts: { keep: string; now: Date }): Promise<string[]> {
  const store = registry.store(LEASES);
  const { items } = await store.list({ namespace: 'kube-system' });
  const deleted: string[] = [];
  for (const lease of items) {
    const name = lease.metadata.name ?? '';
    if (name === opts.keep || (lease.metadata.labels ?? {})[IDENTITY_LABEL] !== 'kube-apiserver') continue;
    const spec = (lease as { spec?: { renewTime?: unknown; leaseDurationSeconds?: unknown } }).spec ?? {};
    const renewed = typeof spec.renewTime === 'string' ? Date.parse(spec.renewTime) : NaN;
    const duration = typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : IDENTITY_LEASE_DURATION_SECONDS;
    if (!(renewed + duration * 1000 < opts.now.getTime())) continue;
    const removed = await unlessNotFound(
      store.delete({ namespace: 'kube-system', name, preconditions: { resourceVersion: lease.metadata.resourceVersion ?? '' } }).catch((err: unknown) => {
        // Renewed meanwhile: its server is back.
        if (isStatusError(err) && err.reason === 'Conflict') return undefined;
        throw err;
      }),
    );
    if (removed !== undefined) deleted.push(name);
  }
  return deleted;
}
