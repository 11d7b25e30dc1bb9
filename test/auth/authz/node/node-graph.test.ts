// The graph alone (no storage): kube's graph.go semantics for shared and repeated
// references, orphan removal, re-adds that shrink a pod's references, and the
// PV path (secret -> pv -> pvc -> pod -> node) that needs a walk.
import { describe, expect, test } from 'vitest';
import type { VertexType } from '../../../../src/auth/authz/node/graph.js';
import { NodeGraph } from '../../../../src/auth/authz/node/node-graph.js';
import { pod } from './fixtures.js';

const withSecrets = (name: string, node: string, secrets: string[]) =>
  pod(name, node, { volumes: secrets.map((s, i) => ({ name: `v${i}`, secret: { secretName: s } })) });

const PV = { metadata: { name: 'pv' }, spec: { claimRef: { namespace: 'default', name: 'claim' }, rbd: { secretRef: { name: 'ceph' } } } };

interface Probe {
  readonly node: string;
  readonly type: VertexType;
  readonly name: string;
  readonly namespace?: string;
}

const cases: { name: string; input: (g: NodeGraph) => void; want: { reachable: Probe[]; unreachable: Probe[]; counts?: Partial<Record<VertexType, number>> } }[] = [
  {
    name: 'a secret two pods share survives one of them',
    input: (g) => {
      g.addPod(withSecrets('p1', 'n1', ['shared']));
      g.addPod(withSecrets('p2', 'n2', ['shared']));
      g.deletePod('default', 'p1');
    },
    want: { reachable: [{ node: 'n2', type: 'secret', name: 'shared' }], unreachable: [{ node: 'n1', type: 'secret', name: 'shared' }], counts: { secret: 1, node: 1, pod: 1 } },
  },
  {
    name: 'a secret named twice by one pod goes with it',
    input: (g) => {
      g.addPod(withSecrets('p1', 'n1', ['s', 's']));
      g.deletePod('default', 'p1');
    },
    want: { reachable: [], unreachable: [{ node: 'n1', type: 'secret', name: 's' }], counts: { secret: 0, node: 0, pod: 0 } },
  },
  {
    name: 're-adding a pod drops references it no longer has',
    input: (g) => {
      g.addPod(withSecrets('p1', 'n1', ['old', 'kept']));
      g.addPod(withSecrets('p1', 'n1', ['kept']));
    },
    want: { reachable: [{ node: 'n1', type: 'secret', name: 'kept' }], unreachable: [{ node: 'n1', type: 'secret', name: 'old' }], counts: { secret: 1 } },
  },
  {
    name: "a PV's secret reaches the node of the pod using its claim",
    input: (g) => {
      g.addPV(PV);
      g.addPod(pod('p1', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }));
      g.addPod(withSecrets('p2', 'n2', ['ceph']));
    },
    want: {
      reachable: [
        { node: 'n1', type: 'secret', name: 'ceph' },
        { node: 'n2', type: 'secret', name: 'ceph' },
        { node: 'n1', type: 'pv', name: 'pv', namespace: '' },
      ],
      unreachable: [{ node: 'n2', type: 'pv', name: 'pv', namespace: '' }],
    },
  },
  {
    name: 'a PV unbound from its claim takes its secret path with it',
    input: (g) => {
      g.addPV(PV);
      g.addPod(pod('p1', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }));
      g.addPV({ metadata: { name: 'pv' }, spec: {} });
    },
    want: { reachable: [{ node: 'n1', type: 'pvc', name: 'claim' }], unreachable: [{ node: 'n1', type: 'secret', name: 'ceph' }], counts: { pv: 0, secret: 0 } },
  },
  {
    name: 'an attachment moved to another node',
    input: (g) => {
      g.addVolumeAttachment('va', 'n1');
      g.addVolumeAttachment('va', 'n2');
    },
    want: { reachable: [{ node: 'n2', type: 'volumeattachment', name: 'va', namespace: '' }], unreachable: [{ node: 'n1', type: 'volumeattachment', name: 'va', namespace: '' }], counts: { node: 1 } },
  },
  {
    name: 'names that are prototype members',
    input: (g) => g.addPod(pod('constructor', '__proto__', { volumes: [{ name: 'v', secret: { secretName: 'toString' } }] }, { namespace: '__proto__' })),
    want: {
      reachable: [{ node: '__proto__', type: 'secret', name: 'toString', namespace: '__proto__' }],
      unreachable: [
        { node: '__proto__', type: 'secret', name: 'toString' },
        { node: 'constructor', type: 'secret', name: 'toString', namespace: '__proto__' },
      ],
    },
  },
];

describe('NodeGraph', () => {
  for (const c of cases) {
    test(c.name, () => {
      const g = new NodeGraph();
      c.input(g);
      const ask = (p: Probe) => g.hasPathFrom(p.node, p.type, p.namespace ?? 'default', p.name);
      expect(c.want.reachable.filter((p) => !ask(p))).toEqual([]);
      expect(c.want.unreachable.filter(ask)).toEqual([]);
      for (const [type, n] of Object.entries(c.want.counts ?? {})) expect({ type, n: g.count(type as VertexType) }).toEqual({ type, n });
    });
  }
});
