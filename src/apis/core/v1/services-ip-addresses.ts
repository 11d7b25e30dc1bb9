// The IPAddress objects (networking.k8s.io/v1) of service cluster IPs, as kube
// 1.33+'s allocator keeps them: one per allocated IP, named by the address, with
// the service as parentRef and the labels ipaddress.kubernetes.io/ip-family and
// ipaddress.kubernetes.io/managed-by: ipallocator.k8s.io. kapi's allocator keeps
// its own record per IP (service-allocation.ts: the atomic claim, with the
// service's uid), and this mirror follows the records: written right after a
// record is taken, removed right before it is given back (so nobody can take the
// IP in between), and reconciled with the records at every start (missing ones
// made, edited ones replaced, ones without a record removed). Writes go straight
// to storage like the records, so a watch of ipaddresses sees every change.
import { randomUUID } from 'node:crypto';
import { isStorageError } from '../../../errors/storage-error.js';
import { collectionPrefix, objectKey } from '../../../registry/keys.js';
import { rfc3339 } from '../../../registry/store/metadata.js';
import type { KubeObject } from '../../../schema/object.js';
import type { Storage } from '../../../storage/storage.js';
import { objectAt, stringAt } from './helpers.js';

export const IP_FAMILY_LABEL = 'ipaddress.kubernetes.io/ip-family';
export const MANAGED_BY_LABEL = 'ipaddress.kubernetes.io/managed-by';
export const IP_ALLOCATOR_MANAGER = 'ipallocator.k8s.io';

const IP_ADDRESSES = { group: 'networking.k8s.io', plural: 'ipaddresses', scope: 'Cluster' } as const;
/** Bounded rounds against a concurrent writer (another replica repairing the same IP). */
const ROUNDS = 5;

/** The service an IP belongs to. */
export interface ServiceRef {
  readonly namespace: string;
  readonly name: string;
}

function isManagedFor(obj: KubeObject, ref: ServiceRef): boolean {
  const parent = objectAt(objectAt(obj, 'spec'), 'parentRef');
  const labels = obj.metadata.labels ?? {};
  return (
    stringAt(parent, 'group') === '' &&
    stringAt(parent, 'resource') === 'services' &&
    stringAt(parent, 'namespace') === ref.namespace &&
    stringAt(parent, 'name') === ref.name &&
    labels[IP_FAMILY_LABEL] === 'IPv4' &&
    labels[MANAGED_BY_LABEL] === IP_ALLOCATOR_MANAGER
  );
}

function ipAddressFor(ip: string, ref: ServiceRef): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IPAddress',
    metadata: {
      name: ip,
      uid: randomUUID(),
      creationTimestamp: rfc3339(new Date()),
      labels: { [IP_FAMILY_LABEL]: 'IPv4', [MANAGED_BY_LABEL]: IP_ALLOCATOR_MANAGER },
    },
    spec: { parentRef: { group: '', resource: 'services', namespace: ref.namespace, name: ref.name } },
  } as KubeObject;
}

async function read(storage: Storage, key: string): Promise<KubeObject | undefined> {
  try {
    return await storage.get(key);
  } catch (err) {
    if (isStorageError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** Deletes exactly the object read (its uid); false when it changed or went meanwhile. */
async function deleteRead(storage: Storage, key: string, obj: KubeObject): Promise<boolean> {
  try {
    await storage.delete(key, { preconditions: { uid: obj.metadata.uid ?? '' } });
    return true;
  } catch (err) {
    if (isStorageError(err, 'NotFound') || isStorageError(err, 'PreconditionFailed')) return false;
    throw err;
  }
}

export interface IPAddressMirror {
  /** Makes the IPAddress of `ip` name `ref` (created, or replaced when it names something else); true when it wrote. */
  ensure(ip: string, ref: ServiceRef): Promise<boolean>;
  /** Removes the IPAddress of `ip` if it names `ref`. */
  remove(ip: string, ref: ServiceRef): Promise<void>;
  /**
   * Removes every allocator-managed IPAddress whose IP `isRecorded` denies (asked
   * per object, just before its removal, so an IP taken meanwhile keeps its object);
   * answers how many went.
   */
  prune(isRecorded: (ip: string) => Promise<boolean>): Promise<number>;
}

export function createIPAddressMirror(storage: Storage): IPAddressMirror {
  const keyOf = (ip: string) => objectKey(IP_ADDRESSES, { name: ip });
  return {
    async ensure(ip, ref) {
      const key = keyOf(ip);
      let wrote = false;
      for (let round = 0; round < ROUNDS; round++) {
        // Create first: a new allocation (the common case) costs one write.
        try {
          await storage.create(key, ipAddressFor(ip, ref));
          return true;
        } catch (err) {
          if (!isStorageError(err, 'Exists')) throw err;
        }
        const current = await read(storage, key);
        if (current === undefined) continue;
        if (isManagedFor(current, ref)) return wrote;
        // Left by a crash between a release and its record's removal, or edited by a user:
        // the record says who holds the IP, so the object follows it.
        wrote = (await deleteRead(storage, key, current)) || wrote;
      }
      return wrote;
    },
    async remove(ip, ref) {
      const key = keyOf(ip);
      const current = await read(storage, key);
      if (current !== undefined && isManagedFor(current, ref)) await deleteRead(storage, key, current);
    },
    async prune(isRecorded) {
      const { items } = await storage.list(collectionPrefix(IP_ADDRESSES));
      let removed = 0;
      for (const obj of items) {
        const ip = obj.metadata.name ?? '';
        if ((obj.metadata.labels ?? {})[MANAGED_BY_LABEL] !== IP_ALLOCATOR_MANAGER || (await isRecorded(ip))) continue;
        if (await deleteRead(storage, keyOf(ip), obj)) removed++;
      }
      return removed;
    },
  };
}
