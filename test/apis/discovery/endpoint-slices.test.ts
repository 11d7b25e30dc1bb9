// EndpointSlice rules through the real store: port defaults, addresses by type,
// ports, topology fields, the immutable addressType, the generation, and the columns.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { endpointSlices } from '../../../src/apis/discovery/v1/index.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const slice = (rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name: 's', namespace: 'ns', labels: { 'kubernetes.io/service-name': 'web' } }, ...rest });

const cases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'IPv4 slice', input: slice({ addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true }, nodeName: 'node-1', zone: 'z1' }], ports: [{ name: 'http', port: 80 }] }), want: [] },
  { name: 'FQDN slice', input: slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] }), want: [] },
  {
    name: 'addresses of the wrong type and special IPs',
    input: slice({ addressType: 'IPv4', endpoints: [{ addresses: ['fd00::1', '127.0.0.1', '169.254.1.1', '0.0.0.0'] }] }),
    want: [
      'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
      'endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'endpoints[0].addresses[2]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      'endpoints[0].addresses[3]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
    ],
  },
  {
    name: 'IPv6 slice with an IPv4 address and a link-local one',
    input: slice({ addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1', 'fe80::1'] }] }),
    want: ['endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address', 'endpoints[0].addresses[1]: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
  },
  { name: 'FQDN with one segment', input: slice({ addressType: 'FQDN', endpoints: [{ addresses: ['db'] }] }), want: ['endpoints[0].addresses[0]: Invalid value: "db": should be a domain with at least two segments separated by dots'] },
  { name: 'endpoint without addresses', input: slice({ addressType: 'IPv4', endpoints: [{ addresses: [] }] }), want: ['endpoints[0].addresses: Required value: must contain at least 1 address'] },
  { name: 'unknown address type', input: slice({ addressType: 'IP' }), want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'] },
  {
    name: 'ports: bad name, duplicate name, unknown protocol, bad appProtocol',
    input: slice({ addressType: 'IPv4', ports: [{ name: 'Web', port: 80 }, { name: 'a', port: 81 }, { name: 'a', port: 82, protocol: 'ICMP' }, { name: 'b', appProtocol: 'not valid' }] }),
    want: [
      "ports[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'ports[2].name: Duplicate value: "a"',
      'ports[2].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      "ports[3].appProtocol: Invalid value: \"not valid\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ],
  },
  {
    name: 'hostname and nodeName',
    input: slice({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], hostname: 'a.b', nodeName: 'Node_1' }] }),
    want: [
      'endpoints[0].hostname: Invalid value: "a.b": must not contain dots',
      "endpoints[0].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const res = await h.create(endpointSlices, c.input);
    expect(res.errors).toEqual(c.want);
    if (c.want.length === 0) expect(res.stored).toBeDefined();
    else expect(res.stored).toBeUndefined();
  });
}

test('ports default to an empty name and TCP; generation 1', async () => {
  const res = await h.create(endpointSlices, slice({ addressType: 'IPv4', ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }));
  expect(res.stored?.ports).toEqual([{ name: '', port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  expect(res.stored?.metadata.generation).toBe(1);
});

test('addressType is immutable; endpoints and labels move the generation, annotations do not', async () => {
  const created = await h.create(endpointSlices, slice({ addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] }));
  const retyped = await h.update(endpointSlices, { ...created.stored!, addressType: 'IPv6', endpoints: [] });
  expect(retyped.causes).toEqual([{ field: 'addressType', reason: 'FieldValueInvalid', message: 'Invalid value: "IPv6": field is immutable' }]);
  const annotated = await h.update(endpointSlices, { ...created.stored!, metadata: { ...created.stored!.metadata, annotations: { a: 'b' } } });
  expect(annotated.stored?.metadata.generation).toBe(1);
  const moved = await h.update(endpointSlices, { ...annotated.stored!, endpoints: [{ addresses: ['10.0.0.2'] }] });
  expect(moved.stored?.metadata.generation).toBe(2);
  const relabelled = await h.update(endpointSlices, { ...moved.stored!, metadata: { ...moved.stored!.metadata, labels: { x: 'y' } } });
  expect(relabelled.stored?.metadata.generation).toBe(3);
});

test('columns: NAME ADDRESSTYPE PORTS ENDPOINTS AGE, three then "more"', () => {
  const table = endpointSlices.table!;
  expect(table.columns.map((c) => c.name)).toEqual(['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
  const now = new Date('2026-01-02T03:05:00Z');
  const metadata = { name: 'x', creationTimestamp: '2026-01-02T03:04:00Z' };
  const full: KubeObject = {
    metadata,
    addressType: 'IPv4',
    ports: [{ port: 80 }, { name: 'dns' }, {}, { port: 9 }],
    endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4', '10.0.0.5'] }],
  };
  expect(table.cells(full, now)).toEqual(['x', 'IPv4', '80,dns,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...', '60s']);
  expect(table.cells({ metadata, addressType: 'FQDN' }, now)).toEqual(['x', 'FQDN', '<unset>', '<unset>', '60s']);
});
