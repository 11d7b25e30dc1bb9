// kube's PodResizeValidator admission plugin (on by default in 1.36): a resize
// through pods/<name>/resize that changes the spec of a pod bound to a node must
// fit that node. The node must exist, be a linux node when it says what it is
// (label kubernetes.io/os), and its status.allocatable must cover the pod's
// effective cpu and memory requests. Refusals are 403 Forbidden with kube's texts;
// the last two carry kube's cause reason. It reads stored Nodes, which a strategy
// may not, so it is a validating plugin main.ts adds to the chain.
import type { AdmissionAttributes, AdmissionPlugin } from '../../../admission/plugin.js';
import { forbidden } from '../../../errors/status-error.js';
import type { KubeObject } from '../../../schema/object.js';
import { objectKey } from '../../../registry/keys.js';
import { isStorageError } from '../../../errors/storage-error.js';
import type { Storage } from '../../../storage/storage.js';
import { type Json, itemsAt, objectAt, stringAt } from './helpers.js';
import { nodes } from './nodes.js';
import { parseQuantity } from './quantity.js';

const PODS = { group: '', resource: 'pods' } as const;
const OS_LABEL = 'kubernetes.io/os';
const RESOURCES = ['cpu', 'memory'] as const;
type Requests = Record<(typeof RESOURCES)[number], number>;

export interface NodeGetter {
  /** The stored Node, or undefined when there is none. */
  get(name: string): Promise<KubeObject | undefined>;
}

/** The cpu and memory of a resource list (requests, allocatable, overhead); 0 where absent. */
function cpuAndMemory(list: Json | undefined): Requests {
  const out: Requests = { cpu: 0, memory: 0 };
  for (const r of RESOURCES) if (list !== undefined && Object.hasOwn(list, r)) out[r] = parseQuantity(list[r]) ?? 0;
  return out;
}

function requestsOf(c: Json | undefined): Requests {
  return cpuAndMemory(objectAt(objectAt(c, 'resources'), 'requests'));
}

function add(into: Requests, more: Requests): void {
  for (const r of RESOURCES) into[r] += more[r];
}

/**
 * What the pod asks of its node (component-helpers' PodRequests): the regular and
 * sidecar containers together, or more when an init container running beside the
 * sidecars started before it asks for more; pod-level requests where set; overhead.
 */
export function podRequests(spec: Json): Requests {
  const total: Requests = { cpu: 0, memory: 0 };
  for (const c of itemsAt(spec, 'containers')) add(total, requestsOf(c));
  const sidecars: Requests = { cpu: 0, memory: 0 };
  const initMax: Requests = { cpu: 0, memory: 0 };
  for (const c of itemsAt(spec, 'initContainers')) {
    const own = requestsOf(c);
    let needs: Requests;
    if (stringAt(c, 'restartPolicy') === 'Always') {
      add(total, own);
      add(sidecars, own);
      needs = { ...sidecars };
    } else {
      needs = { ...own };
      add(needs, sidecars);
    }
    for (const r of RESOURCES) initMax[r] = Math.max(initMax[r], needs[r]);
  }
  for (const r of RESOURCES) total[r] = Math.max(total[r], initMax[r]);
  const podLevel = objectAt(objectAt(spec, 'resources'), 'requests');
  for (const r of RESOURCES) if (podLevel !== undefined && Object.hasOwn(podLevel, r)) total[r] = parseQuantity(podLevel[r]) ?? total[r];
  add(total, cpuAndMemory(objectAt(spec, 'overhead')));
  return total;
}

/** Go's Quantity.MilliValue and Value: rounded up. */
function milli(v: number): number {
  return Math.ceil(v * 1000 - 1e-9);
}

export function podResizeAdmission(nodeGetter: NodeGetter): AdmissionPlugin {
  return {
    name: 'PodResizeValidator',
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (attrs.operation !== 'UPDATE' || attrs.subresource !== 'resize' || attrs.resource.group !== '' || attrs.resource.resource !== 'pods') return;
      const pod = attrs.object;
      const old = attrs.oldObject;
      if (pod === undefined || old === undefined) return;
      const spec = objectAt(pod, 'spec') ?? {};
      const nodeName = stringAt(spec, 'nodeName');
      // Generation moves only when the spec does: an unchanged spec needs no room.
      if (nodeName === '' || old.metadata.generation === pod.metadata.generation) return;
      const node = await nodeGetter.get(nodeName);
      if (node === undefined) throw forbidden(PODS, attrs.name, `node ${JSON.stringify(nodeName)} not found`);
      const labels = node.metadata.labels;
      const os = labels !== undefined && Object.hasOwn(labels, OS_LABEL) ? labels[OS_LABEL]! : 'linux';
      if (os !== 'linux') {
        throw forbidden(PODS, attrs.name, `pod resize is only supported on linux nodes, node ${JSON.stringify(nodeName)} is ${JSON.stringify(os)}`, [{ reason: 'UnsupportedPlatform' }]);
      }
      const asked = podRequests(spec);
      const allocatable = cpuAndMemory(objectAt(objectAt(node, 'status'), 'allocatable'));
      const short: string[] = [];
      if (asked.cpu > allocatable.cpu) short.push(`cpu, requested: ${milli(asked.cpu)}, allocatable: ${milli(allocatable.cpu)}`);
      if (asked.memory > allocatable.memory) short.push(`memory, requested: ${Math.ceil(asked.memory)}, allocatable: ${Math.ceil(allocatable.memory)}`);
      if (short.length > 0) throw forbidden(PODS, attrs.name, `node didn't have enough allocatable resources: ${short.join('; ')}`, [{ reason: 'NodeCapacity' }]);
    },
  };
}

/** The plugin over the stored Nodes (kube reads them through an informer). */
export function podResizeAdmissionFromStorage(storage: Storage): AdmissionPlugin {
  return podResizeAdmission({
    get: async (name) => {
      try {
        return await storage.get(objectKey(nodes, { name }));
      } catch (err) {
        if (isStorageError(err, 'NotFound')) return undefined;
        throw err;
      }
    },
  });
}
