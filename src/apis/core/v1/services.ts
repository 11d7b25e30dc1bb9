// Services: kube's SetDefaults_Service plus the IP-family fields the service
// REST fills in. Cluster IPs and node ports come from their ranges through the
// store's allocator (service-allocation.ts, given to the group's factory coreV1); this file keeps
// what a write must carry over or drop when the type changes.
import { defineResource } from '../../../registry/define-resource.js';
import { serviceTable } from './services-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, duplicate, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { validateImmutableField, validatePortNumber } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { isIP } from 'node:net';
import { PROTOCOLS } from './endpoints.js';
import { type Json, arrayAt, ensureObject, objectAt, setDefault, stringAt } from './helpers.js';

export const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'] as const;
const AFFINITIES = ['ClientIP', 'None'] as const;
const DEFAULT_CLIENT_IP_TIMEOUT = 10800;

function applyDefaults(svc: KubeObject): void {
  const spec = ensureObject(svc, 'spec');
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = ensureObject(ensureObject(spec, 'sessionAffinityConfig'), 'clientIP');
    setDefault(clientIP, 'timeoutSeconds', DEFAULT_CLIENT_IP_TIMEOUT);
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const port of arrayAt(spec, 'ports')) {
    setDefault(port, 'protocol', 'TCP');
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  const type = spec.type;
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && arrayAt(spec, 'externalIPs').length > 0);
  if (externallyAccessible) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (type !== 'ExternalName') setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

/** What the service REST fills in on a single-stack IPv4 cluster (kube's alloc.go). */
function defaultIPFamilies(spec: Json): void {
  if (spec.type === 'ExternalName') return;
  const clusterIP = stringAt(spec, 'clusterIP');
  if (clusterIP !== '' && spec.clusterIPs === undefined) spec.clusterIPs = [clusterIP];
  // Headless services without a selector serve both families whatever the cluster runs.
  const headlessNoSelector = clusterIP === 'None' && Object.keys(objectAt(spec, 'selector') ?? {}).length === 0;
  setDefault(spec, 'ipFamilyPolicy', headlessNoSelector ? 'RequireDualStack' : 'SingleStack');
  if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) {
    spec.ipFamilies = spec.ipFamilyPolicy === 'SingleStack' ? ['IPv4'] : ['IPv4', 'IPv6'];
  }
}

/**
 * A PUT or apply that leaves out allocated values keeps them, as kube's service
 * REST does (patchAllocatedValues), so re-applying a manifest is not a change.
 */
function keepAllocatedValues(next: KubeObject, prev: KubeObject): void {
  const n = ensureObject(next, 'spec');
  const o = objectAt(prev, 'spec') ?? {};
  if (n.type === 'ExternalName' || o.type === 'ExternalName') return;
  if (stringAt(n, 'clusterIP') === '' && stringAt(o, 'clusterIP') !== '') {
    n.clusterIP = o.clusterIP;
    n.clusterIPs = structuredClone(o.clusterIPs);
  }
  for (const f of ['ipFamilies', 'ipFamilyPolicy', 'healthCheckNodePort'] as const) if (n[f] === undefined && o[f] !== undefined) n[f] = structuredClone(o[f]);
  const oldPorts = arrayAt(o, 'ports');
  for (const port of arrayAt(n, 'ports')) {
    if (port.nodePort !== undefined) continue;
    const match = oldPorts.find((op) => op.port === port.port && (op.protocol ?? 'TCP') === (port.protocol ?? 'TCP'));
    if (match?.nodePort !== undefined) port.nodePort = match.nodePort;
  }
}

function needsClusterIP(spec: Json): boolean {
  return spec.type !== 'ExternalName';
}

function needsNodePorts(spec: Json): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

function externallyAccessible(spec: Json): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && arrayAt(spec, 'externalIPs').length > 0);
}

/**
 * kube's dropTypeDependentFields: a type change that leaves a value the new type
 * cannot have, unchanged from the stored object, drops it (the allocator then
 * gives it back), so `kubectl patch -p '{"spec":{"type":"ClusterIP"}}'` on a
 * NodePort service just works. A value the client changed along with the type
 * stays, and validation judges it.
 */
function dropTypeDependentFields(next: KubeObject, prev: KubeObject): void {
  const n = ensureObject(next, 'spec');
  const o = objectAt(prev, 'spec') ?? {};
  if (n.type === o.type) return;
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (needsClusterIP(o) && !needsClusterIP(n) && stringAt(n, 'clusterIP') === stringAt(o, 'clusterIP') && same(n.clusterIPs, o.clusterIPs)) {
    delete n.clusterIP;
    delete n.clusterIPs;
    if (same(n.ipFamilies, o.ipFamilies)) delete n.ipFamilies;
    if (n.ipFamilyPolicy === o.ipFamilyPolicy) delete n.ipFamilyPolicy;
  }
  if (needsNodePorts(o) && !needsNodePorts(n)) {
    const oldPorts = arrayAt(o, 'ports');
    const unchanged = arrayAt(n, 'ports').every((port) => port.nodePort === undefined || oldPorts.some((op) => op.nodePort === port.nodePort));
    if (unchanged) for (const port of arrayAt(n, 'ports')) delete port.nodePort;
  }
  if (n.type !== 'LoadBalancer' && n.allocateLoadBalancerNodePorts === o.allocateLoadBalancerNodePorts) delete n.allocateLoadBalancerNodePorts;
  if (!externallyAccessible(n) && n.externalTrafficPolicy === o.externalTrafficPolicy) delete n.externalTrafficPolicy;
  if (!needsClusterIP(n) && n.internalTrafficPolicy === o.internalTrafficPolicy) delete n.internalTrafficPolicy;
}

function validatePorts(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const ports = arrayAt(spec, 'ports');
  const sp = path('spec', 'ports');
  if (ports.length === 0 && spec.type !== 'ExternalName' && spec.clusterIP !== 'None') errs.push(required(sp));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const pp = sp.index(i);
    const name = stringAt(port, 'name');
    if (ports.length > 1 && name === '') errs.push(required(pp.child('name')));
    else if (name !== '') {
      for (const msg of isDNS1123Label(name)) errs.push(invalidValue(pp.child('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(pp.child('name'), name));
      names.add(name);
    }
    errs.push(...validatePortNumber(port.port, pp.child('port')));
    if (port.nodePort !== undefined && port.nodePort !== 0 && !needsNodePorts(spec)) {
      errs.push(forbiddenField(pp.child('nodePort'), `may not be used when \`type\` is '${stringAt(spec, 'type')}'`));
    }
    const protocol = stringAt(port, 'protocol');
    if (!(PROTOCOLS as readonly string[]).includes(protocol)) errs.push(notSupported(pp.child('protocol'), protocol, PROTOCOLS));
    if (typeof port.targetPort === 'number') errs.push(...validatePortNumber(port.targetPort, pp.child('targetPort')));
  });
  return errs;
}

export function validateService(svc: KubeObject): FieldError[] {
  const spec: Json = objectAt(svc, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const type = stringAt(spec, 'type');
  if (!(SERVICE_TYPES as readonly string[]).includes(type)) errs.push(notSupported(sp.child('type'), type, SERVICE_TYPES));
  const affinity = stringAt(spec, 'sessionAffinity');
  if (!(AFFINITIES as readonly string[]).includes(affinity)) errs.push(notSupported(sp.child('sessionAffinity'), affinity, AFFINITIES));
  if (type === 'ExternalName') {
    const externalName = stringAt(spec, 'externalName');
    if (externalName === '') errs.push(required(sp.child('externalName')));
    // A fully qualified name may end with a dot.
    else for (const msg of isDNS1123Subdomain(externalName.replace(/\.$/, ''))) errs.push(invalidValue(sp.child('externalName'), externalName, msg));
  }
  const clusterIP = stringAt(spec, 'clusterIP');
  if (type === 'ExternalName' && (clusterIP !== '' || arrayAt(spec, 'clusterIPs').length > 0)) {
    errs.push(forbiddenField(sp.child('clusterIPs'), 'may not be set for ExternalName services'));
  } else if (clusterIP !== '' && clusterIP !== 'None' && isIP(clusterIP) === 0) {
    errs.push(invalidValue(sp.child('clusterIPs').index(0), clusterIP, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  }
  errs.push(...validateLabels(spec.selector, sp.child('selector')));
  return [...errs, ...validatePorts(spec)];
}

function validateUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  const n = objectAt(next, 'spec') ?? {};
  const o = objectAt(prev, 'spec') ?? {};
  const errs = validateService(next);
  // A set clusterIP stays (changing it needs delete and create), unless the type moves to/from ExternalName.
  if (stringAt(o, 'clusterIP') !== '' && n.type !== 'ExternalName' && o.type !== 'ExternalName') {
    errs.push(...validateImmutableField(stringAt(n, 'clusterIP'), stringAt(o, 'clusterIP'), path('spec', 'clusterIP')));
  }
  return errs;
}

export const services = defineResource({
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  scope: 'Namespaced',
  table: serviceTable,
  shortNames: ['svc'],
  categories: ['all'],
  nameValidation: 'label',
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate: (svc) => {
      defaultIPFamilies(ensureObject(svc, 'spec'));
      svc.status = { loadBalancer: {} };
    },
    // Allocated values first: the IP families follow the cluster IP the update keeps.
    prepareForUpdate: (next, prev) => {
      keepAllocatedValues(next, prev);
      dropTypeDependentFields(next, prev);
      defaultIPFamilies(ensureObject(next, 'spec'));
    },
    validate: validateService,
    validateUpdate,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    returnDeletedObject: true,
    selectableFields: (svc) => ({ 'spec.clusterIP': stringAt(objectAt(svc, 'spec'), 'clusterIP'), 'spec.type': stringAt(objectAt(svc, 'spec'), 'type') }),
  },
  subresources: { status: { verbs: ['get', 'patch', 'update'], path: 'status' } },
});
