// The API Priority and Fairness configuration kube-apiserver keeps in every
// cluster: the mandatory objects (exempt and catch-all levels and schemas) and
// the suggested ones. Specs are written out fully defaulted, so a stored object
// can be compared with them as they are. server/bootstrap-flowcontrol.ts ensures
// them at every start.
import type { KubeObject } from '../../../schema/object.js';

/** Bootstrap objects carrying this annotation "true" are kept equal to the spec here. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const kubeSystemServiceAccount = (name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } });

const ALL_RESOURCES = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }];
const ALL_NON_RESOURCES = [{ verbs: ['*'], nonResourceURLs: ['*'] }];

function priorityLevel(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec };
}

function limited(shares: number, lendablePercent: number, queuing: { queues: number; handSize: number; queueLengthLimit: number }): Record<string, unknown> {
  return { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing } } };
}

function flowSchema(name: string, level: string, precedence: number, method: 'ByUser' | 'ByNamespace' | undefined, rules: Record<string, unknown>[]): KubeObject {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence: precedence,
      ...(method === undefined ? {} : { distinguisherMethod: { type: method } }),
      rules,
    },
  };
}

/** A schema matching every request of the subjects. */
function allRequestsOf(name: string, level: string, precedence: number, method: 'ByUser' | 'ByNamespace' | undefined, subjects: Subject[]): KubeObject {
  return flowSchema(name, level, precedence, method, [{ subjects, resourceRules: ALL_RESOURCES, nonResourceRules: ALL_NON_RESOURCES }]);
}

export const MANDATORY_PRIORITY_LEVELS: readonly KubeObject[] = [
  priorityLevel('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  priorityLevel('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
];

export const MANDATORY_FLOW_SCHEMAS: readonly KubeObject[] = [
  allRequestsOf('exempt', 'exempt', 1, undefined, [group('system:masters')]),
  allRequestsOf('catch-all', 'catch-all', 10000, 'ByUser', [group('system:unauthenticated'), group('system:authenticated')]),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly KubeObject[] = [
  priorityLevel('system', limited(30, 33, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('node-high', limited(40, 25, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('leader-election', limited(10, 0, { queues: 16, handSize: 4, queueLengthLimit: 50 })),
  priorityLevel('workload-high', limited(40, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('workload-low', limited(100, 90, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
  priorityLevel('global-default', limited(20, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
];

const LEASES_EVERYWHERE = { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] };

export const SUGGESTED_FLOW_SCHEMAS: readonly KubeObject[] = [
  allRequestsOf('system-nodes', 'system', 500, 'ByUser', [group('system:nodes')]),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', [
    {
      subjects: [group('system:nodes')],
      resourceRules: [
        { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true },
        { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
      ],
    },
  ]),
  flowSchema('probes', 'exempt', 2, undefined, [
    {
      subjects: [group('system:unauthenticated'), group('system:authenticated')],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
    },
  ]),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', [
    {
      subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemServiceAccount('*')],
      resourceRules: [LEASES_EVERYWHERE],
    },
  ]),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', [
    {
      subjects: [user('system:kube-controller-manager'), kubeSystemServiceAccount('endpoint-controller'), kubeSystemServiceAccount('endpointslicemirroring-controller')],
      resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
    },
  ]),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', [{ subjects: [kubeSystemServiceAccount('*')], resourceRules: [LEASES_EVERYWHERE] }]),
  allRequestsOf('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [user('system:kube-controller-manager')]),
  allRequestsOf('kube-scheduler', 'workload-high', 800, 'ByNamespace', [user('system:kube-scheduler')]),
  allRequestsOf('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [kubeSystemServiceAccount('*')]),
  allRequestsOf('service-accounts', 'workload-low', 9000, 'ByUser', [group('system:serviceaccounts')]),
  allRequestsOf('global-default', 'global-default', 9900, 'ByUser', [group('system:unauthenticated'), group('system:authenticated')]),
];
