// The pod's QoS class (kube's qos.GetPodQOS): computed at create from cpu and
// memory requests and limits summed over init and regular containers.
import { type Json, arrayAt, objectAt } from './helpers.js';
import { parseQuantity } from './quantity.js';

export type PodQOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

function addPositive(into: Map<string, number>, list: Json | undefined): Set<string> {
  const found = new Set<string>();
  for (const [name, q] of Object.entries(list ?? {})) {
    const n = parseQuantity(q);
    if (!QOS_RESOURCES.has(name) || n === undefined || n <= 0) continue;
    found.add(name);
    into.set(name, (into.get(name) ?? 0) + n);
  }
  return found;
}

export function podQOSClass(spec: Json): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of [...arrayAt(spec, 'initContainers'), ...arrayAt(spec, 'containers')]) {
    const resources = objectAt(c, 'resources');
    addPositive(requests, objectAt(resources, 'requests'));
    const limited = addPositive(limits, objectAt(resources, 'limits'));
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) if (limits.get(name) !== req) guaranteed = false;
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
