// Services: kube's SetDefaults_Service plus the IP-family fields the service
// REST fills in. ClusterIP and NodePort allocation from --service-cluster-ip-range
// / --service-node-port-range is a later piece (TODO(#3)): until then clusterIP
// stays as the client sent it ("None" for headless, empty otherwise).
import { defineResource } from '../../../registry/define-resource.js';
import { serviceTable } from './services-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, duplicate, invalidValue, notSupported, path, required } from '../../../errors/field-errors.js';
import { validateImmutableField, validateLabels, validatePortNumber } from '../../../registry/validation/common.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { isIP } from 'node:net';
import { PROTOCOLS } from './endpoints.js';
import { type Json, arrayAt, ensureObject, keepStatus, objectAt, setDefault, stringAt } from './helpers.js';

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
  defaultIPFamilies(spec);
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
  if (clusterIP !== '' && clusterIP !== 'None' && isIP(clusterIP) === 0) {
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
    resetFields: ['status'],
    prepareForCreate: (svc) => {
      applyDefaults(svc);
      svc.status = { loadBalancer: {} };
    },
    prepareForUpdate: (next, prev) => {
      keepAllocatedValues(next, prev);
      applyDefaults(next);
      keepStatus(next, prev);
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
