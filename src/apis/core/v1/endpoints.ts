// Endpoints (legacy; EndpointSlice replaced it): address and port syntax only.
// kube-apiserver 1.33+ warns on every write, so clients see the same hint here.
import { defineResource } from '../../../registry/define-resource.js';
import { endpointsTable } from './endpoints-table.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, duplicate, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { validatePortNumber } from '../../../registry/validation/common.js';
import { isDNS1123Label } from '../../../registry/validation/names.js';
import { isIP } from 'node:net';
import { arrayAt, stringAt } from './helpers.js';

export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'] as const;
const DEPRECATION = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

export function validateEndpoints(ep: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(ep, 'subsets').forEach((subset, i) => {
    const sp = path('subsets').index(i);
    const addresses = arrayAt(subset, 'addresses');
    const notReady = arrayAt(subset, 'notReadyAddresses');
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(sp, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [field, list] of [['addresses', addresses], ['notReadyAddresses', notReady]] as const) {
      list.forEach((a, j) => {
        const ip = stringAt(a, 'ip');
        if (isIP(ip) === 0) errs.push(invalidValue(sp.child(field).index(j).child('ip'), ip, 'must be a valid IP address'));
      });
    }
    const ports = arrayAt(subset, 'ports');
    const seen = new Set<string>();
    ports.forEach((port, j) => {
      const pp = sp.child('ports').index(j);
      const name = stringAt(port, 'name');
      if (ports.length > 1 && name === '') errs.push(required(pp.child('name')));
      else if (name !== '') {
        for (const msg of isDNS1123Label(name)) errs.push(invalidValue(pp.child('name'), name, msg));
        if (seen.has(name)) errs.push(duplicate(pp.child('name'), name));
        seen.add(name);
      }
      errs.push(...validatePortNumber(port.port, pp.child('port')));
      const protocol = stringAt(port, 'protocol');
      if (protocol === '') errs.push(required(pp.child('protocol')));
      else if (!(PROTOCOLS as readonly string[]).includes(protocol)) errs.push(notSupported(pp.child('protocol'), protocol, PROTOCOLS));
    });
  });
  return errs;
}

function defaultPorts(ep: KubeObject): void {
  for (const subset of arrayAt(ep, 'subsets')) for (const port of arrayAt(subset, 'ports')) if (port.protocol === undefined) port.protocol = 'TCP';
}

export const endpoints = defineResource({
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  plural: 'endpoints',
  singular: 'endpoints',
  scope: 'Namespaced',
  table: endpointsTable,
  shortNames: ['ep'],
  strategy: {
    defaults: defaultPorts,
    validate: validateEndpoints,
    warnings: () => [DEPRECATION],
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
  },
});
