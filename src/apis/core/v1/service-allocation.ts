// Service cluster IPs and node ports, as kube's service REST allocates them: a
// ClusterIP, NodePort or LoadBalancer service gets an IP from
// --service-cluster-ip-range unless it asks for one (or for "None": headless);
// NodePort and LoadBalancer services get a node port per port from
// --service-node-port-range unless they name one. A named value must be inside
// the range and free, else the write is Invalid with kube's texts.
//
// Every allocated value is one storage key, /ranges/serviceips/<ip> or
// /ranges/servicenodeports/<port>, holding its owner; beside each IP record is the
// IPAddress object kube 1.33+ keeps per IP (services-ip-addresses.ts). Taking a
// value is a storage create,
// so two writers (two kapi replicas on one etcd) can never take the same one, and
// a record carries the service's uid, so a release only ever drops a record of
// the object being released. Dynamic picks prefer the upper part of a range and
// leave the lower band to services that name their value (kube's KEP-3070).
import { isStorageError } from '../../../errors/storage-error.js';
import { internal, invalid } from '../../../errors/status-error.js';
import { invalidValue, path, type FieldError } from '../../../schema/field-errors.js';
import type { AllocationTxn, Allocator } from '../../../registry/allocation.js';
import type { KubeObject } from '../../../schema/object.js';
import type { Storage } from '../../../storage/storage.js';
import { type Json, arrayAt, ensureObject, objectAt, stringAt } from './helpers.js';
import { createIPAddressMirror, type IPAddressMirror } from './services-ip-addresses.js';

export const IP_PREFIX = '/ranges/serviceips/';
export const NODE_PORT_PREFIX = '/ranges/servicenodeports/';

/** An IPv4 CIDR's usable addresses: offsets 1 .. size-2 from the network address. */
export interface IpRange {
  readonly cidr: string;
  readonly base: number;
  readonly size: number;
}

/** An inclusive port range. */
export interface PortRange {
  readonly text: string;
  readonly base: number;
  readonly size: number;
}

function ipv4ToNumber(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** Parses --service-cluster-ip-range (IPv4, mask /12 to /30 like kube's legacy allocator); throws with the reason. */
export function parseIpRange(text: string): IpRange {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(text.trim());
  const ip = m === null ? undefined : ipv4ToNumber(m[1]!);
  if (m === null || ip === undefined) throw new Error(`${JSON.stringify(text)} is not an IPv4 CIDR (e.g. 10.0.0.0/24)`);
  const bits = Number(m[2]);
  if (bits < 12 || bits > 30) throw new Error(`${text}: the mask must be between /12 and /30`);
  const size = 2 ** (32 - bits);
  const base = ip - (ip % size);
  return { cidr: `${numberToIpv4(base)}/${bits}`, base, size };
}

/** Parses --service-node-port-range ("30000-32767" or "30000+2767"); throws with the reason. */
export function parsePortRange(text: string): PortRange {
  const m = /^(\d+)([-+])(\d+)$/.exec(text.trim());
  if (m === null) throw new Error(`${JSON.stringify(text)} is not a port range (e.g. 30000-32767)`);
  const first = Number(m[1]);
  const last = m[2] === '-' ? Number(m[3]) : first + Number(m[3]);
  if (first < 1 || last > 65535 || last < first) throw new Error(`${text}: ports must be 1-65535, the first not above the last`);
  return { text: `${first}-${last}`, base: first, size: last - first + 1 };
}

/** The first usable IP of the range: the `kubernetes` service's, as in kube. */
export function firstServiceIP(range: IpRange): string {
  return numberToIpv4(range.base + 1);
}

interface Pool {
  readonly prefix: string;
  /** Usable values, lowest first. */
  readonly first: number;
  readonly count: number;
  /** Values below this offset are left to explicit requests while others are free. */
  readonly band: number;
  readonly render: (n: number) => string;
  readonly parse: (s: string) => number | undefined;
  readonly full: string;
}

function ipPool(range: IpRange): Pool {
  const count = range.size - 2;
  return {
    prefix: IP_PREFIX,
    first: range.base + 1,
    count,
    band: Math.min(Math.max(16, Math.floor(range.size / 16)), 256, Math.floor(count / 2)),
    render: numberToIpv4,
    parse: ipv4ToNumber,
    full: 'failed to allocate a serviceIP: range is full',
  };
}

function portPool(range: PortRange): Pool {
  return {
    prefix: NODE_PORT_PREFIX,
    first: range.base,
    count: range.size,
    band: Math.min(Math.max(16, Math.floor(range.size / 32)), 128, Math.floor(range.size / 2)),
    render: String,
    parse: (s) => (/^\d+$/.test(s) ? Number(s) : undefined),
    full: 'failed to allocate a nodePort: range is full',
  };
}

interface Owner {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
}

function ownerOf(svc: KubeObject): Owner {
  return { uid: svc.metadata.uid ?? '', namespace: svc.metadata.namespace ?? '', name: svc.metadata.name ?? '' };
}

const RANDOM_TRIES = 8;

/** Who an allocation record says holds a value. */
export interface RecordHolder {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
}

/** Re-reads one service (for repair's last check before dropping a record); undefined when absent. */
export type ServiceLookup = (namespace: string, name: string) => Promise<KubeObject | undefined>;

class PoolStore {
  constructor(
    readonly storage: Storage,
    readonly pool: Pool,
    /** The cluster IP pool's IPAddress objects; absent for node ports. */
    readonly mirror?: IPAddressMirror,
  ) {}

  key(n: number): string {
    return `${this.pool.prefix}${this.pool.render(n)}`;
  }

  inRange(n: number): boolean {
    return n >= this.pool.first && n < this.pool.first + this.pool.count;
  }

  /** Takes value n; false when another object holds it. dryRun only looks. */
  async take(n: number, owner: Owner, dryRun: boolean): Promise<boolean> {
    const key = this.key(n);
    if (dryRun) {
      try {
        const held = await this.storage.get(key);
        return held.metadata.uid === owner.uid;
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return true;
        throw err;
      }
    }
    const record: KubeObject = {
      apiVersion: 'v1',
      kind: 'RangeAllocation',
      metadata: { name: this.pool.render(n), uid: owner.uid, creationTimestamp: new Date().toISOString() },
      service: { namespace: owner.namespace, name: owner.name },
    } as KubeObject;
    try {
      await this.storage.create(key, record);
    } catch (err) {
      if (isStorageError(err, 'Exists')) return false;
      throw err;
    }
    // The record is the claim; its IPAddress follows it (or the claim is given back).
    try {
      await this.mirror?.ensure(this.pool.render(n), owner);
    } catch (err) {
      await this.give(n, owner.uid).catch(() => undefined);
      throw err;
    }
    return true;
  }

  /** Takes any free value, upper band first; undefined when the range is full. */
  async takeAny(owner: Owner, dryRun: boolean): Promise<number | undefined> {
    const { first, count, band } = this.pool;
    const upper = count - band;
    for (let i = 0; i < RANDOM_TRIES && upper > 0; i++) {
      const n = first + band + Math.floor(Math.random() * upper);
      if (await this.take(n, owner, dryRun)) return n;
    }
    // Crowded: look at what is taken and pick among the rest.
    const taken = new Set<number>();
    const { items } = await this.storage.list(this.pool.prefix);
    for (const item of items) {
      const n = this.pool.parse(item.metadata.name ?? '');
      if (n !== undefined) taken.add(n);
    }
    const free = (from: number, to: number): number[] => {
      const out: number[] = [];
      for (let n = from; n < to; n++) if (!taken.has(n)) out.push(n);
      return out;
    };
    for (const candidates of [free(first + band, first + count), free(first, first + band)]) {
      while (candidates.length > 0) {
        const at = Math.floor(Math.random() * candidates.length);
        const n = candidates[at]!;
        candidates.splice(at, 1);
        if (await this.take(n, owner, dryRun)) return n;
      }
    }
    return undefined;
  }

  /** The record of n: the uid holding it and the service it names; undefined when n is free. */
  async holder(n: number): Promise<RecordHolder | undefined> {
    try {
      const record = await this.storage.get(this.key(n));
      const svc = (record as { service?: { namespace?: unknown; name?: unknown } }).service;
      return {
        uid: record.metadata.uid ?? '',
        namespace: typeof svc?.namespace === 'string' ? svc.namespace : '',
        name: typeof svc?.name === 'string' ? svc.name : '',
      };
    } catch (err) {
      if (isStorageError(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  /** Drops the record of n if `uid` holds it; anything else (gone, re-taken) is left alone. */
  async give(n: number, uid: string): Promise<void> {
    if (this.mirror !== undefined) {
      // The IPAddress goes first, while the record still keeps anyone else from taking the IP.
      const holder = await this.holder(n);
      if (holder === undefined || holder.uid !== uid) return;
      await this.mirror.remove(this.pool.render(n), holder);
    }
    try {
      await this.storage.delete(this.key(n), { preconditions: { uid } });
    } catch (err) {
      if (isStorageError(err, 'NotFound') || isStorageError(err, 'PreconditionFailed')) return;
      throw err;
    }
  }
}

/** Which values a service holds. */
function needsClusterIP(svc: KubeObject | undefined): boolean {
  return svc !== undefined && stringAt(objectAt(svc, 'spec'), 'type') !== 'ExternalName';
}

function needsNodePorts(svc: KubeObject | undefined): boolean {
  const spec = objectAt(svc, 'spec');
  const type = stringAt(spec, 'type');
  return type === 'NodePort' || (type === 'LoadBalancer' && spec?.allocateLoadBalancerNodePorts !== false);
}

function heldIP(svc: KubeObject | undefined, pool: PoolStore): number | undefined {
  if (!needsClusterIP(svc)) return undefined;
  const n = pool.pool.parse(stringAt(objectAt(svc, 'spec'), 'clusterIP'));
  return n !== undefined && pool.inRange(n) ? n : undefined;
}

function heldNodePorts(svc: KubeObject | undefined, pool: PoolStore): Set<number> {
  const out = new Set<number>();
  if (!needsNodePorts(svc)) return out;
  for (const port of arrayAt(objectAt(svc, 'spec'), 'ports')) {
    if (typeof port.nodePort === 'number' && pool.inRange(port.nodePort)) out.add(port.nodePort);
  }
  return out;
}

/**
 * Matches the IPAddress objects with the IP records (kube's IPAddress repair):
 * every record gets its object (data dirs older than the mirror, objects a user
 * deleted or edited), objects without a record go. Answers how many it wrote.
 */
async function repairIPAddresses(ips: PoolStore): Promise<number> {
  const mirror = ips.mirror;
  if (mirror === undefined) return 0;
  let written = 0;
  const { items } = await ips.storage.list(ips.pool.prefix);
  for (const record of items) {
    const named = (record as { service?: { namespace?: unknown; name?: unknown } }).service;
    if (typeof named?.name !== 'string') continue;
    const ref = { namespace: typeof named.namespace === 'string' ? named.namespace : '', name: named.name };
    if (await mirror.ensure(record.metadata.name ?? '', ref)) written++;
  }
  written += await mirror.prune(async (ip) => {
    const n = ips.pool.parse(ip);
    return n !== undefined && ips.inRange(n) && (await ips.holder(n)) !== undefined;
  });
  return written;
}

export interface ServiceAllocatorOptions {
  readonly storage: Storage;
  readonly clusterIPRange: IpRange;
  readonly nodePortRange: PortRange;
}

export interface ServiceAllocator extends Allocator {
  /**
   * Values services hold against the records in storage; drops stale records,
   * records missing ones. A record is dropped only when it is older than
   * olderThanMs (a write may be between taking a value and storing its service)
   * and, with lookup, when a fresh read of the service it names shows that
   * service does not hold it: replicas starting together never drop what another
   * one just took.
   */
  repair(
    services: readonly KubeObject[],
    opts?: { olderThanMs?: number; lookup?: ServiceLookup },
  ): Promise<{ dropped: number; recorded: number; ipAddresses: number }>;
  /** Who holds cluster IP `ip` (undefined: free, or not an address of the range). */
  clusterIPHolder(ip: string): Promise<RecordHolder | undefined>;
  /** Drops the record of cluster IP `ip` if `uid` still holds it. */
  releaseClusterIP(ip: string, uid: string): Promise<void>;
  /**
   * Makes the records of every value the stored service `svc` holds name it:
   * missing records are written; records of an earlier object of the same
   * namespace and name (left by a crash, or by a replica whose create lost the
   * race) are taken over. Values another service holds are left alone and
   * answered, so the caller can report them.
   */
  ensureRecorded(svc: KubeObject): Promise<{ readonly heldElsewhere: readonly string[] }>;
}

export function createServiceAllocator(opts: ServiceAllocatorOptions): ServiceAllocator {
  const ips = new PoolStore(opts.storage, ipPool(opts.clusterIPRange), createIPAddressMirror(opts.storage));
  const ports = new PoolStore(opts.storage, portPool(opts.nodePortRange));
  const cidr = opts.clusterIPRange.cidr;
  const portText = opts.nodePortRange.text;

  return {
    async allocate(next, prev, { dryRun }) {
      const owner = ownerOf(next);
      const taken: Array<{ pool: PoolStore; n: number }> = [];
      const undo = async (): Promise<void> => {
        if (dryRun) return;
        for (const t of taken.splice(0)) await t.pool.give(t.n, owner.uid);
      };
      const errs: FieldError[] = [];
      const spec: Json = ensureObject(next, 'spec');
      const prevIP = heldIP(prev, ips);
      try {
        if (needsClusterIP(next)) {
          const asked = stringAt(spec, 'clusterIP');
          const p = path('spec', 'clusterIPs');
          if (asked === '') {
            const n = await ips.takeAny(owner, dryRun);
            if (n === undefined) throw internal(new Error(ips.pool.full));
            taken.push({ pool: ips, n });
            spec.clusterIP = ips.pool.render(n);
            spec.clusterIPs = [spec.clusterIP];
          } else if (asked !== 'None') {
            const n = ipv4ToNumber(asked);
            if (n === undefined || !ips.inRange(n)) {
              errs.push(invalidValue(p, [asked], `failed to allocate IP ${asked}: the provided IP (${asked}) is not in the valid range. The range of valid IPs is ${cidr}`));
            } else if (n !== prevIP) {
              if (await ips.take(n, owner, dryRun)) taken.push({ pool: ips, n });
              else errs.push(invalidValue(p, [asked], `failed to allocate IP ${asked}: provided IP is already allocated`));
            }
            spec.clusterIPs ??= [asked];
          } else {
            spec.clusterIPs ??= ['None'];
          }
        }
        const prevPorts = heldNodePorts(prev, ports);
        if (needsNodePorts(next)) {
          const mine = new Set<number>();
          const list = arrayAt(spec, 'ports');
          for (let i = 0; i < list.length; i++) {
            const port = list[i]!;
            const p = path('spec', 'ports').index(i).child('nodePort');
            const asked = port.nodePort;
            if (asked === undefined || asked === 0) {
              const n = await ports.takeAny(owner, dryRun);
              if (n === undefined) throw internal(new Error(ports.pool.full));
              taken.push({ pool: ports, n });
              mine.add(n);
              port.nodePort = n;
            } else if (typeof asked !== 'number' || !ports.inRange(asked)) {
              errs.push(invalidValue(p, asked, `provided port is not in the valid range. The range of valid ports is ${portText}`));
            } else if (!prevPorts.has(asked) && !mine.has(asked)) {
              if (await ports.take(asked, owner, dryRun)) {
                taken.push({ pool: ports, n: asked });
                mine.add(asked);
              } else errs.push(invalidValue(p, asked, 'provided port is already allocated'));
            }
          }
        }
        if (errs.length > 0) {
          throw invalid({ group: '', kind: 'Service' }, next.metadata.name ?? '', errs);
        }
      } catch (err) {
        await undo();
        throw err;
      }
      // What the stored object held and this one no longer does goes back once the write lands.
      const nextIP = heldIP(next, ips);
      const nextPorts = heldNodePorts(next, ports);
      const prevUid = prev?.metadata.uid ?? '';
      const released: Array<{ pool: PoolStore; n: number }> = [];
      if (prevIP !== undefined && prevIP !== nextIP) released.push({ pool: ips, n: prevIP });
      for (const n of heldNodePorts(prev, ports)) if (!nextPorts.has(n)) released.push({ pool: ports, n });
      const txn: AllocationTxn = {
        commit: async () => {
          taken.length = 0;
          if (dryRun) return;
          for (const r of released.splice(0)) await r.pool.give(r.n, prevUid).catch(() => undefined);
        },
        revert: undo,
      };
      return txn;
    },

    async release(svc) {
      const uid = svc.metadata.uid ?? '';
      const ip = heldIP(svc, ips);
      // Best effort: the object is already gone; a record left behind is dropped by repair().
      if (ip !== undefined) await ips.give(ip, uid).catch(() => undefined);
      for (const n of heldNodePorts(svc, ports)) await ports.give(n, uid).catch(() => undefined);
    },

    async repair(services, { olderThanMs = 60_000, lookup } = {}) {
      let dropped = 0;
      let recorded = 0;
      for (const pool of [ips, ports]) {
        const holds = (svc: KubeObject | undefined, n: number): boolean =>
          pool === ips ? heldIP(svc, ips) === n : heldNodePorts(svc, ports).has(n);
        const holders = new Map<number, KubeObject>();
        for (const svc of services) {
          const held = pool === ips ? [heldIP(svc, ips)] : [...heldNodePorts(svc, ports)];
          for (const n of held) if (n !== undefined) holders.set(n, svc);
        }
        const { items } = await opts.storage.list(pool.pool.prefix);
        const recordedValues = new Set<number>();
        for (const record of items) {
          const n = pool.pool.parse(record.metadata.name ?? '');
          if (n === undefined) continue;
          recordedValues.add(n);
          const holder = holders.get(n);
          if (holder !== undefined && holder.metadata.uid === record.metadata.uid) continue;
          // A write may be between taking a value and storing its service: only old records go.
          const age = Date.now() - Date.parse(String(record.metadata.creationTimestamp ?? ''));
          if (!(age > olderThanMs)) continue;
          // The service list may predate the record's service (another replica wrote it since).
          const named = (record as { service?: { namespace?: unknown; name?: unknown } }).service;
          if (lookup !== undefined && typeof named?.name === 'string') {
            const fresh = await lookup(typeof named.namespace === 'string' ? named.namespace : '', named.name);
            if (fresh !== undefined && fresh.metadata.uid === record.metadata.uid && holds(fresh, n)) continue;
          }
          await pool.give(n, record.metadata.uid ?? '');
          recordedValues.delete(n);
          dropped++;
        }
        for (const [n, svc] of holders) {
          if (recordedValues.has(n)) continue;
          if (await pool.take(n, ownerOf(svc), false)) recorded++;
        }
      }
      const ipAddresses = await repairIPAddresses(ips);
      return { dropped, recorded, ipAddresses };
    },

    async clusterIPHolder(ip) {
      const n = ipv4ToNumber(ip);
      return n === undefined || !ips.inRange(n) ? undefined : ips.holder(n);
    },

    async releaseClusterIP(ip, uid) {
      const n = ipv4ToNumber(ip);
      if (n !== undefined && ips.inRange(n)) await ips.give(n, uid);
    },

    async ensureRecorded(svc) {
      const owner = ownerOf(svc);
      const heldElsewhere: string[] = [];
      const values: Array<{ pool: PoolStore; n: number }> = [];
      const ip = heldIP(svc, ips);
      if (ip !== undefined) values.push({ pool: ips, n: ip });
      for (const n of heldNodePorts(svc, ports)) values.push({ pool: ports, n });
      for (const { pool, n } of values) {
        // Each round either finds the record right, writes it, or removes a stale one;
        // a few rounds cover a concurrent writer doing the same.
        for (let round = 0; round < 5; round++) {
          const holder = await pool.holder(n);
          if (holder === undefined) {
            if (await pool.take(n, owner, false)) break;
            continue;
          }
          if (holder.uid === owner.uid) break;
          if (holder.namespace !== owner.namespace || holder.name !== owner.name) {
            heldElsewhere.push(pool.key(n));
            break;
          }
          await pool.give(n, holder.uid);
        }
      }
      return { heldElsewhere };
    },
  };
}
