// resource.k8s.io/v1 through the real store: defaults of device requests, one row
// per validation rule, immutability, and the claim's STATE column.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceClasses, resourceClaimTemplates, resourceClaims, resourceSlices } from '../../../src/apis/resource/v1/index.js';
import type { ResourceDefinition } from '../../../src/registry/define-resource.js';
import { NOW } from '../../endpoints/harness.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeAll(async () => {
  h = await createStoreHarness();
});
afterAll(() => h.close());

let n = 0;
const obj = (def: ResourceDefinition, spec: Record<string, unknown>) => ({ apiVersion: 'resource.k8s.io/v1', kind: def.kind, metadata: { name: `r${++n}`, namespace: 'default' }, spec });
const exact = (extra: Record<string, unknown> = {}) => ({ deviceClassName: 'gpu.example.com', ...extra });
const claim = (requests: unknown[], extra: Record<string, unknown> = {}) => ({ devices: { requests, ...extra } });
const slice = (extra: Record<string, unknown> = {}) => ({ driver: 'gpu.example.com', pool: { name: 'p', generation: 0, resourceSliceCount: 1 }, nodeName: 'n1', ...extra });

test('request defaults: allocationMode ExactCount, count 1, toleration operator Equal', async () => {
  const out = await h.create(resourceClaims, obj(resourceClaims, claim([{ name: 'a', exactly: exact({ tolerations: [{ key: 'k', effect: 'NoSchedule' }] }) }, { name: 'b', firstAvailable: [{ name: 'x', ...exact({ allocationMode: 'All' }) }] }])));
  expect(out.errors).toEqual([]);
  expect(out.stored?.spec).toEqual(
    claim([
      { name: 'a', exactly: exact({ allocationMode: 'ExactCount', count: 1, tolerations: [{ key: 'k', effect: 'NoSchedule', operator: 'Equal' }] }) },
      { name: 'b', firstAvailable: [{ name: 'x', ...exact({ allocationMode: 'All' }) }] },
    ]),
  );
});

describe('validation', () => {
  const cases: { name: string; def: ResourceDefinition; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'class valid', def: deviceClasses, spec: { selectors: [{ cel: { expression: "device.attributes['gpu.example.com'].model == 'a100'" } }], config: [{ opaque: { driver: 'gpu.example.com', parameters: { a: 1 } } }] }, want: [] },
    { name: 'class selector without cel', def: deviceClasses, spec: { selectors: [{}] }, want: ['spec.selectors[0].cel: Required value'] },
    { name: 'class selector not compiling', def: deviceClasses, spec: { selectors: [{ cel: { expression: 'device.driver ==' } }] }, want: ['spec.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: Unexpected token: EOF (at 1:17)'] },
    { name: 'class selector on an unknown variable', def: deviceClasses, spec: { selectors: [{ cel: { expression: "object.driver == 'x'" } }] }, want: ['spec.selectors[0].cel.expression: Invalid value: "object.driver == \'x\'": compilation failed: Unknown variable: object (at 1:1)'] },
    { name: 'class selector not a bool', def: deviceClasses, spec: { selectors: [{ cel: { expression: "'x'" } }] }, want: ['spec.selectors[0].cel.expression: Invalid value: "\'x\'": must evaluate to bool'] },
    {
      name: 'hostile: a selector nested past the parser\'s stack',
      def: deviceClasses,
      spec: { selectors: [{ cel: { expression: `${'!'.repeat(50_000)}true` } }] },
      want: [`spec.selectors[0].cel.expression: Invalid value: "${'!'.repeat(50_000)}true": compilation failed: max recursion depth exceeded`],
    },
    { name: 'class config without parameters', def: deviceClasses, spec: { config: [{ opaque: { driver: 'gpu.example.com' } }] }, want: ['spec.config[0].opaque.parameters: Required value'] },
    { name: 'claim request name not a label', def: resourceClaims, spec: claim([{ name: 'GPU', exactly: exact() }]), want: [expect.stringMatching(/^spec\.devices\.requests\[0\]\.name: Invalid value: "GPU": a lowercase RFC 1123 label/) as unknown as string] },
    { name: 'claim duplicate request names', def: resourceClaims, spec: claim([{ name: 'a', exactly: exact() }, { name: 'a', exactly: exact() }]), want: ['spec.devices.requests[1].name: Duplicate value: "a"'] },
    { name: 'claim request with neither', def: resourceClaims, spec: claim([{ name: 'a' }]), want: ['spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required'] },
    {
      name: 'claim request with both',
      def: resourceClaims,
      spec: claim([{ name: 'a', exactly: exact(), firstAvailable: [{ name: 'x', ...exact() }] }]),
      want: ['spec.devices.requests[0].firstAvailable: Forbidden: exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'],
    },
    { name: 'claim without deviceClassName', def: resourceClaims, spec: claim([{ name: 'a', exactly: {} }]), want: ['spec.devices.requests[0].exactly.deviceClassName: Required value'] },
    { name: 'claim count zero', def: resourceClaims, spec: claim([{ name: 'a', exactly: exact({ count: 0 }) }]), want: ['spec.devices.requests[0].exactly.count: Invalid value: 0: must be greater than zero'] },
    { name: 'claim bad allocationMode', def: resourceClaims, spec: claim([{ name: 'a', exactly: exact({ allocationMode: 'Some' }) }]), want: ['spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount"'] },
    {
      name: 'claim constraint naming an unknown request',
      def: resourceClaims,
      spec: claim([{ name: 'a', exactly: exact() }], { constraints: [{ requests: ['b'], matchAttribute: 'gpu.example.com/numa' }] }),
      want: ["spec.devices.constraints[0].requests[0]: Invalid value: \"b\": must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"],
    },
    { name: 'template valid', def: resourceClaimTemplates, spec: { spec: claim([{ name: 'a', exactly: exact() }]) }, want: [] },
    { name: 'template subrequest selector not compiling', def: resourceClaimTemplates, spec: { spec: claim([{ name: 'a', firstAvailable: [{ name: 'x', ...exact({ selectors: [{ cel: { expression: ')' } }] }) }] }]) }, want: [expect.stringMatching(/^spec\.spec\.devices\.requests\[0\]\.firstAvailable\[0\]\.selectors\[0\]\.cel\.expression: Invalid value: "\)": compilation failed: /) as unknown as string] },
    { name: 'slice valid with allNodes', def: resourceSlices, spec: slice({ nodeName: undefined, allNodes: true }), want: [] },
    { name: 'slice without driver', def: resourceSlices, spec: slice({ driver: '' }), want: ['spec.driver: Required value'] },
    { name: 'slice without node placement', def: resourceSlices, spec: slice({ nodeName: undefined }), want: ['spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'] },
    { name: 'slice with two node placements', def: resourceSlices, spec: slice({ allNodes: true }), want: ['spec: Invalid value: "{nodeName, allNodes}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set'] },
    { name: 'slice resourceSliceCount zero', def: resourceSlices, spec: slice({ pool: { name: 'p', generation: 0, resourceSliceCount: 0 } }), want: ['spec.pool.resourceSliceCount: Invalid value: 0: must be greater than 0'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await h.create(c.def, obj(c.def, c.spec));
      expect(out.errors).toEqual(c.want);
      expect(out.stored === undefined).toBe(c.want.length > 0);
    });
  }
});

describe('updates', () => {
  test('a claim\'s spec is immutable; status is written through /status and shows in STATE', async () => {
    const created = (await h.create(resourceClaims, obj(resourceClaims, claim([{ name: 'a', exactly: exact() }])))).stored!;
    const changed = await h.update(resourceClaims, { ...created, spec: claim([{ name: 'b', exactly: exact() }]) });
    expect(changed.errors).toEqual([expect.stringMatching(/^spec: Invalid value: .*: field is immutable$/)]);
    const table = resourceClaims.table!;
    expect(table.cells(created, NOW)[1]).toBe('pending');
    const status = { allocation: { devices: { results: [{ request: 'a', driver: 'gpu.example.com', pool: 'p', device: 'gpu-0' }] } }, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] };
    const out = await h.updateStatus(resourceClaims, { ...created, status });
    expect(out.errors).toEqual([]);
    expect(out.stored?.status).toEqual(status);
    expect(table.cells(out.stored!, NOW)[1]).toBe('allocated,reserved');
  });

  test('a slice\'s driver and node are immutable', async () => {
    const created = (await h.create(resourceSlices, obj(resourceSlices, slice()))).stored!;
    const out = await h.update(resourceSlices, { ...created, spec: slice({ nodeName: 'n2', driver: 'other.example.com' }) });
    expect(out.errors).toEqual(['spec.nodeName: Invalid value: "n2": field is immutable', 'spec.driver: Invalid value: "other.example.com": field is immutable']);
  });
});
