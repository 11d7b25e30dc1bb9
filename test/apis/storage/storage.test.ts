// storage.k8s.io rules through the real registry: StorageClass and CSIDriver
// defaults and immutables, the CSI driver names and shapes of CSINode,
// VolumeAttachment, CSIStorageCapacity and VolumeAttributesClass, and the tables.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { csiDrivers } from '../../../src/apis/storage/v1/csi-drivers.js';
import { csiNodes } from '../../../src/apis/storage/v1/csi-nodes.js';
import { csiStorageCapacities } from '../../../src/apis/storage/v1/csi-storage-capacities.js';
import { storageClasses } from '../../../src/apis/storage/v1/storage-classes.js';
import { volumeAttachments } from '../../../src/apis/storage/v1/volume-attachments.js';
import { volumeAttributesClasses } from '../../../src/apis/storage/v1/volume-attributes-classes.js';
import type { ResourceDefinition } from '../../../src/registry/define-resource.js';
import { tableForObject } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const obj = (kind: string, name: string, rest: Record<string, unknown>, namespace?: string): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind,
  metadata: { name, ...(namespace === undefined ? {} : { namespace }) },
  ...rest,
});
const sc = (name: string, rest: Record<string, unknown>) => obj('StorageClass', name, rest);
const driver = (name: string, spec: Record<string, unknown>) => obj('CSIDriver', name, { spec });

function cellsOf(def: ResourceDefinition, o: KubeObject, seconds = 0) {
  const t = tableForObject(o, { table: def.table, version: 'v1', includeObject: 'None', type: { apiVersion: 'storage.k8s.io/v1', kind: def.kind }, now: new Date(Date.parse(o.metadata.creationTimestamp!) + seconds * 1000) });
  return { columns: t.columnDefinitions!.map((c) => c.name), cells: t.rows[0]!.cells };
}

describe('StorageClass', () => {
  test('reclaimPolicy Delete and volumeBindingMode Immediate by default', async () => {
    const res = await h.create(storageClasses, sc('s', { provisioner: 'csi.example.com' }));
    expect(res.stored).toMatchObject({ provisioner: 'csi.example.com', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
  });

  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    { name: 'no provisioner', input: sc('x', {}), want: ['provisioner: Required value'] },
    { name: 'provisioner not a qualified name', input: sc('x', { provisioner: 'a b' }), want: [expect.stringMatching(/^provisioner: Invalid value: "a b": name part must consist of/)] },
    { name: 'unknown reclaim policy', input: sc('x', { provisioner: 'p', reclaimPolicy: 'Recycle' }), want: ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'] },
    { name: 'unknown binding mode', input: sc('x', { provisioner: 'p', volumeBindingMode: 'Later' }), want: ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'] },
    { name: 'empty parameter key', input: sc('x', { provisioner: 'p', parameters: { '': 'v' } }), want: ['parameters: Invalid value: "": field can not be empty.'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.create(storageClasses, c.input);
      expect(res.errors).toEqual(c.want);
      expect(res.stored).toBeUndefined();
    });
  }

  test('provisioner, parameters, reclaimPolicy and binding mode are fixed; expansion may change', async () => {
    const { stored } = await h.create(storageClasses, sc('s', { provisioner: 'p', parameters: { type: 'ssd' } }));
    const res = await h.update(storageClasses, { ...stored!, provisioner: 'q', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    expect(res.errors).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    expect((await h.update(storageClasses, { ...stored!, allowVolumeExpansion: true })).errors).toEqual([]);
  });

  test('table marks the default class', async () => {
    const plain = (await h.create(storageClasses, sc('plain', { provisioner: 'p' }))).stored!;
    const def = (await h.create(storageClasses, { ...sc('std', { provisioner: 'p', allowVolumeExpansion: true, reclaimPolicy: 'Retain' }), metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } })).stored!;
    expect(cellsOf(storageClasses, plain).columns).toEqual(['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
    expect(cellsOf(storageClasses, plain, 3).cells).toEqual(['plain', 'p', 'Delete', 'Immediate', false, '3s']);
    expect(cellsOf(storageClasses, def, 3).cells).toEqual(['std (default)', 'p', 'Retain', 'Immediate', true, '3s']);
  });
});

describe('CSIDriver', () => {
  test('every switch is defaulted', async () => {
    const res = await h.create(csiDrivers, driver('csi.example.com', {}));
    expect(res.stored!.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      storageCapacity: false,
      seLinuxMount: false,
    });
  });

  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    { name: 'name not a driver name', input: driver('bad_name', {}), want: [expect.stringMatching(/^metadata\.name: Invalid value: "bad_name": a lowercase RFC 1123 subdomain/)] },
    { name: 'upper case is checked lower-cased, as kube', input: driver('CSI.Example.com', {}), want: [] },
    { name: 'unknown lifecycle mode', input: driver('d', { volumeLifecycleModes: ['Forever'] }), want: ['spec.volumeLifecycleModes[0]: Unsupported value: "Forever": supported values: "Ephemeral", "Persistent"'] },
    { name: 'unknown fsGroupPolicy', input: driver('d', { fsGroupPolicy: 'Some' }), want: ['spec.fsGroupPolicy: Unsupported value: "Some": supported values: "File", "None", "ReadWriteOnceWithFSType"'] },
    {
      name: 'token requests: duplicate audience, short expiry',
      input: driver('d', { tokenRequests: [{ audience: 'a' }, { audience: 'a', expirationSeconds: 60 }] }),
      want: ['spec.tokenRequests[1].audience: Duplicate value: "a"', 'spec.tokenRequests[1].expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.create(csiDrivers, c.input);
      expect(res.errors).toEqual(c.want);
    });
  }

  test('attachRequired, fsGroupPolicy and modes are fixed; podInfoOnMount may change', async () => {
    const { stored } = await h.create(csiDrivers, driver('d', {}));
    const spec = stored!.spec as Record<string, unknown>;
    const res = await h.update(csiDrivers, { ...stored!, spec: { ...spec, attachRequired: false, fsGroupPolicy: 'File', volumeLifecycleModes: ['Ephemeral'] } });
    expect(res.errors).toEqual([
      'spec.attachRequired: Invalid value: false: field is immutable',
      'spec.fsGroupPolicy: Invalid value: "File": field is immutable',
      'spec.volumeLifecycleModes: Invalid value: ["Ephemeral"]: field is immutable',
    ]);
    expect((await h.update(csiDrivers, { ...stored!, spec: { ...spec, podInfoOnMount: true } })).errors).toEqual([]);
  });

  test('table', async () => {
    const { stored } = await h.create(csiDrivers, driver('d', { tokenRequests: [{ audience: 'x' }, { audience: 'y' }] }));
    expect(cellsOf(csiDrivers, stored!)).toEqual({
      columns: ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age'],
      cells: ['d', true, false, false, 'x,y', false, 'Persistent', '0s'],
    });
  });
});

describe('CSINode, VolumeAttachment, CSIStorageCapacity, VolumeAttributesClass', () => {
  const cases: { name: string; def: ResourceDefinition; input: KubeObject; want: string[] }[] = [
    { name: 'csinode with a driver', def: csiNodes, input: obj('CSINode', 'n1', { spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['topology.kubernetes.io/zone'] }] } }), want: [] },
    {
      name: 'csinode driver duplicate and node ID missing',
      def: csiNodes,
      input: obj('CSINode', 'n1', { spec: { drivers: [{ name: 'd.example.com', nodeID: 'a' }, { name: 'd.example.com', nodeID: '' }] } }),
      want: ['spec.drivers[1].name: Duplicate value: "d.example.com"', 'spec.drivers[1].nodeID: Required value'],
    },
    { name: 'attachment of a PV', def: volumeAttachments, input: obj('VolumeAttachment', 'va', { spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } } }), want: [] },
    {
      name: 'attachment without attacher, node or source',
      def: volumeAttachments,
      input: obj('VolumeAttachment', 'va', { spec: { source: {} } }),
      want: ['spec.attacher: Required value', 'spec.nodeName: Required value', 'spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName'],
    },
    { name: 'capacity', def: csiStorageCapacities, input: obj('CSIStorageCapacity', 'c', { storageClassName: 'fast', capacity: '1Gi' }, 'ns'), want: [] },
    {
      name: 'capacity without class, negative',
      def: csiStorageCapacities,
      input: obj('CSIStorageCapacity', 'c', { capacity: '-1Gi' }, 'ns'),
      want: ['storageClassName: Required value', 'capacity: Invalid value: "-1Gi": must be greater than or equal to 0'],
    },
    { name: 'attributes class', def: volumeAttributesClasses, input: obj('VolumeAttributesClass', 'v', { driverName: 'csi.example.com', parameters: { iops: '1' } }), want: [] },
    {
      name: 'attributes class without driver or parameters',
      def: volumeAttributesClasses,
      input: obj('VolumeAttributesClass', 'v', {}),
      want: ['driverName: Required value', 'parameters: Required value: must contain at least one key/value pair'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.create(c.def, c.input);
      expect(res.errors).toEqual(c.want);
      expect(res.stored === undefined).toBe(c.want.length > 0);
    });
  }

  test('a VolumeAttachment spec is fixed; status only through /status', async () => {
    const { stored } = await h.create(volumeAttachments, obj('VolumeAttachment', 'va', { spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } }, status: { attached: true } }));
    expect(stored!.status ?? {}).toEqual({});
    const spec = stored!.spec as Record<string, unknown>;
    expect((await h.update(volumeAttachments, { ...stored!, spec: { ...spec, nodeName: 'n2' } })).errors).toEqual([
      'spec: Invalid value: {"attacher":"csi.example.com","nodeName":"n2","source":{"persistentVolumeName":"pv"}}: field is immutable',
    ]);
    const attached = await h.updateStatus(volumeAttachments, { ...stored!, status: { attached: true } });
    expect(attached.stored!.status).toEqual({ attached: true });
    expect(cellsOf(volumeAttachments, attached.stored!)).toEqual({ columns: ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age'], cells: ['va', 'csi.example.com', 'pv', 'n1', true, '0s'] });
  });

  test('a capacity may change its numbers but not its class; the VAC parameters are fixed', async () => {
    const cap = (await h.create(csiStorageCapacities, obj('CSIStorageCapacity', 'c', { storageClassName: 'fast', capacity: '1Gi' }, 'ns'))).stored!;
    expect((await h.update(csiStorageCapacities, { ...cap, capacity: '2Gi' })).errors).toEqual([]);
    const now = (await h.get(csiStorageCapacities, { name: 'c', namespace: 'ns' }))!;
    expect((await h.update(csiStorageCapacities, { ...now, storageClassName: 'slow' })).errors).toEqual(['storageClassName: Invalid value: "slow": field is immutable']);
    expect(cellsOf(csiStorageCapacities, now)).toEqual({ columns: ['Name', 'StorageClassName', 'Capacity'], cells: ['c', 'fast', '2Gi'] });
    const vac = (await h.create(volumeAttributesClasses, obj('VolumeAttributesClass', 'v', { driverName: 'csi.example.com', parameters: { iops: '1' } }))).stored!;
    expect((await h.update(volumeAttributesClasses, { ...vac, parameters: { iops: '2' } })).errors).toEqual(['parameters: Invalid value: {"iops":"2"}: field is immutable']);
  });
});
