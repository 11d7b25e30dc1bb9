// EndpointSlices: a service's endpoints in slices of one address type (IPv4,
// IPv6 or FQDN, fixed once set). kube defaults port names to "" and protocols to
// TCP, then checks each address against the type, the ports and the topology
// fields. The generation moves when anything but metadata (labels excepted) changes.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, duplicate, invalidValue, notSupported, path, required, tooMany } from '../../../schema/field-errors.js';
import { deepEqual, validateImmutableField } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../registry/validation/names.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { arrayAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';
import { isIP } from 'node:net';
import { parseIp } from '../../networking/v1/net.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'] as const;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ZONE_HINTS = 8;

/** SetDefaults_EndpointPort. */
function defaultEndpointSlice(eps: KubeObject): void {
  for (const port of arrayAt(eps, 'ports')) {
    if (port.name === undefined || port.name === null) port.name = '';
    if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
}

/** ValidateNonSpecialIP: endpoints may not be unspecified, loopback or link-local. */
function specialIPErrors(address: string): string[] {
  const ip = parseIp(address);
  if (ip === undefined) return [];
  const b = ip.bytes;
  const errs: string[] = [];
  if (b.every((x) => x === 0)) errs.push(`may not be unspecified (${address})`);
  const loopback = ip.family === 4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  const linkLocal = ip.family === 4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80;
  if (linkLocal) errs.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  const linkLocalMulticast = ip.family === 4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && ((b[1] ?? 0) & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return errs;
}

function addressErrors(address: string, addressType: string): string[] {
  switch (addressType) {
    case 'IPv4':
      return isIP(address) === 4 ? specialIPErrors(address) : ['must be a valid IPv4 address'];
    case 'IPv6':
      return isIP(address) === 6 ? specialIPErrors(address) : ['must be a valid IPv6 address'];
    case 'FQDN': {
      const name = address.endsWith('.') ? address.slice(0, -1) : address;
      const errs = isDNS1123Subdomain(name);
      if (errs.length === 0 && name.split('.').length < 2) errs.push('should be a domain with at least two segments separated by dots');
      return errs;
    }
    default:
      return [];
  }
}

function validateEndpoints(eps: KubeObject, addressType: string): FieldError[] {
  const endpoints = arrayAt(eps, 'endpoints');
  const p = path('endpoints');
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany(p, endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const ip = p.index(i);
    const ap = ip.child('addresses');
    const raw = ownField(ep, 'addresses');
    const addresses = Array.isArray(raw) ? raw : [];
    if (addresses.length === 0) errs.push(required(ap, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(ap, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => {
      const address = typeof a === 'string' ? a : '';
      for (const msg of addressErrors(address, addressType)) errs.push(invalidValue(ap.index(j), address, msg));
    });
    const topology = ownField(ep, 'deprecatedTopology');
    const tp = ip.child('deprecatedTopology');
    if (topology !== null && typeof topology === 'object' && Object.keys(topology).length > MAX_TOPOLOGY_LABELS) {
      errs.push(tooMany(tp, Object.keys(topology).length, MAX_TOPOLOGY_LABELS));
    }
    errs.push(...validateLabels(topology, tp));
    const hostname = ownField(ep, 'hostname');
    if (typeof hostname === 'string') for (const msg of isDNS1123Label(hostname)) errs.push(invalidValue(ip.child('hostname'), hostname, msg));
    const nodeName = ownField(ep, 'nodeName');
    if (typeof nodeName === 'string') for (const msg of isDNS1123Subdomain(nodeName)) errs.push(invalidValue(ip.child('nodeName'), nodeName, msg));
    errs.push(...validateHints(ep, ip.child('hints')));
  });
  return errs;
}

function validateHints(ep: Json, p: FieldPath): FieldError[] {
  const hints = ownField(ep, 'hints');
  if (hints === null || typeof hints !== 'object') return [];
  const zones = arrayAt(hints, 'forZones');
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(p.child('forZones'), zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const name = stringAt(z, 'name');
    const zp = p.child('forZones').index(i).child('name');
    if (seen.has(name)) errs.push(duplicate(zp, name));
    seen.add(name);
    // Zone names are values of the topology.kubernetes.io/zone label.
    for (const msg of isValidLabelValue(name)) errs.push(invalidValue(zp, name, msg));
  });
  return errs;
}

function validatePorts(eps: KubeObject): FieldError[] {
  const ports = arrayAt(eps, 'ports');
  const p = path('ports');
  if (ports.length > MAX_PORTS) return [tooMany(p, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const pp = p.index(i);
    const name = stringAt(port, 'name');
    if (name !== '') for (const msg of isDNS1123Label(name)) errs.push(invalidValue(pp.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(pp.child('name'), name));
    names.add(name);
    const protocol = ownField(port, 'protocol');
    if (protocol === undefined || protocol === null) errs.push(required(pp.child('protocol')));
    else if (!(PROTOCOLS as readonly unknown[]).includes(protocol)) errs.push(notSupported(pp.child('protocol'), protocol, PROTOCOLS));
    const appProtocol = ownField(port, 'appProtocol');
    if (typeof appProtocol === 'string') for (const msg of isQualifiedName(appProtocol)) errs.push(invalidValue(pp.child('appProtocol'), appProtocol, msg));
  });
  return errs;
}

function validateEndpointSliceWith(eps: KubeObject, types: readonly string[]): FieldError[] {
  const addressType = stringAt(eps, 'addressType');
  const errs: FieldError[] = [];
  if (addressType === '') errs.push(required(path('addressType')));
  else if (!types.includes(addressType)) errs.push(notSupported(path('addressType'), addressType, types));
  return [...errs, ...validateEndpoints(eps, addressType), ...validatePorts(eps)];
}

export function validateEndpointSlice(eps: KubeObject): FieldError[] {
  return validateEndpointSliceWith(eps, ADDRESS_TYPES);
}

/** Updates also accept the deprecated "IP" type slices stored long ago may have. */
function validateEndpointSliceUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  return [
    ...validateEndpointSliceWith(next, ['FQDN', 'IP', 'IPv4', 'IPv6']),
    ...validateImmutableField(stringAt(next, 'addressType'), stringAt(prev, 'addressType'), path('addressType')),
  ];
}

/** Everything but metadata counts, and the labels (the service they belong to) too. */
function bumpGeneration(next: KubeObject, prev: KubeObject): void {
  const { metadata: nm, ...nRest } = next;
  const { metadata: pm, ...pRest } = prev;
  const generation = pm.generation ?? 1;
  nm.generation = deepEqual(nRest, pRest) && deepEqual(nm.labels, pm.labels) ? generation : generation + 1;
}

/** Up to three items, then "+ N more..."; "<unset>" when there are none. */
function listWithMore(items: string[]): string {
  const shown = items.slice(0, 3).join(',');
  if (items.length > 3) return `${shown} + ${items.length - 3} more...`;
  return shown === '' ? '<unset>' : shown;
}

export const endpointSliceTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'AddressType', description: 'The type of the addresses in the slice.' }),
    column({ name: 'Ports', description: 'Port numbers (or names) the endpoints serve.' }),
    column({ name: 'Endpoints', description: 'The endpoints\' addresses.' }),
    AGE_COLUMN,
  ],
  cells: (eps, now) => {
    const ports = arrayAt(eps, 'ports').map((port) => (typeof port.port === 'number' ? String(port.port) : typeof port.name === 'string' ? port.name : '*'));
    const addresses = arrayAt(eps, 'endpoints').flatMap((ep) => {
      const a = ownField(ep, 'addresses');
      return Array.isArray(a) ? a.map(String) : [];
    });
    return [nameOf(eps), stringAt(eps, 'addressType'), listWithMore(ports), listWithMore(addresses), ageOf(eps, now)];
  },
};

export const endpointSlices = defineResource({
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  scope: 'Namespaced',
  table: endpointSliceTable,
  strategy: {
    defaults: defaultEndpointSlice,
    prepareForCreate: (eps) => {
      eps.metadata.generation = 1;
    },
    prepareForUpdate: bumpGeneration,
    validate: validateEndpointSlice,
    validateUpdate: validateEndpointSliceUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
