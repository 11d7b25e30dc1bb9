// The field sets of built-in objects, each compared with the `fieldsV1` a
// Kubernetes 1.36 cluster stores for the manager of `kubectl apply --server-side`
// of that same object (operation Apply). The expected JSON is written by hand from
// the upstream rules, member order included; each entry names the rules it shows:
//
//   R1  a scalar field is owned as itself: `"f:image":{}`
//   R2  a struct field with fields set owns only what is below it (no `.`)
//   R3  a struct or map set to `{}` is owned as itself: `"f:emptyDir":{}`
//   R4  map entries (labels, annotations, limits) are owned one by one; the map
//       field itself is not
//   R5  a list-type=map item is owned by its key, key fields sorted by name, and
//       owned itself too: `"k:{\"name\":\"web\"}":{".":{},...}`
//   R6  a key field the item omits takes its default: ContainerPort and
//       ServicePort `protocol` default to "TCP" (Go `+default="TCP"`)
//   R7  an atomic list (args, command, tolerations, ipFamilies, configMap items)
//       is owned whole, never by index
//   R8  x-kubernetes-map-type atomic is owned whole: LabelSelector (Deployment
//       selector), Service and Pod nodeSelector maps, ObjectFieldSelector,
//       ConfigMapKeySelector; an atomic item of a keyed list (LocalObjectReference
//       in imagePullSecrets) is its key and nothing below
//   R9  a list-type=set item is owned by value: `"v:\"example.com/cleanup\""`
//   R10 stripped (stripmeta.go): apiVersion, kind, metadata.name, namespace, uid,
//       resourceVersion, generation, creationTimestamp, managedFields, selfLink,
//       clusterName; labels, annotations and finalizers stay; a template's
//       metadata is not the object's and keeps its fields
//   R11 order: fields by name in byte order (uppercase first), then keys by their
//       fields, numbers numerically; `.` first
//   R12 IntOrString and Quantity values are scalars
import { describe, expect, test } from 'vitest';
import { builtinDefinitions } from '../../../src/schema/definitions.js';
import { structuralDefinition } from '../../../src/schema/structural/compile.js';
import { equals, fieldSetOf, fromFieldsV1, toFieldsV1 } from '../../../src/schema/structural/field-set.js';

const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-0',
    namespace: 'shop',
    uid: '9f1c0a52-3d1e-4c55-9d6e-2b1f3c4d5e6f',
    resourceVersion: '4711',
    labels: { app: 'web', tier: 'frontend', Team: 'payments' },
    annotations: { 'example.com/owner': 'team-a' },
  },
  spec: {
    containers: [
      {
        name: 'web',
        image: 'nginx:1.27',
        args: ['--port', '8080'],
        ports: [
          { name: 'http', containerPort: 8080 },
          { name: 'https', containerPort: 8443, protocol: 'TCP' },
          { name: 'dns', containerPort: 53, protocol: 'UDP' },
        ],
        env: [
          { name: 'MODE', value: 'production' },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'DB_HOST', valueFrom: { configMapKeyRef: { name: 'db', key: 'host' } } },
        ],
        resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m' } },
        volumeMounts: [
          { name: 'data', mountPath: '/data' },
          { name: 'config', mountPath: '/etc/web', readOnly: true },
        ],
      },
      { name: 'sidecar', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
    ],
    volumes: [
      { name: 'data', emptyDir: {} },
      { name: 'config', configMap: { name: 'web-config', items: [{ key: 'a', path: 'a.conf' }] } },
    ],
    restartPolicy: 'Always',
    nodeSelector: { disktype: 'ssd' },
    tolerations: [{ key: 'dedicated', operator: 'Exists' }],
  },
};

const podFieldsV1 = {
  'f:metadata': { // R10: name, namespace, uid, resourceVersion gone
    'f:annotations': { 'f:example.com/owner': {} }, // R4
    'f:labels': { 'f:Team': {}, 'f:app': {}, 'f:tier': {} }, // R4, R11 (uppercase first)
  },
  'f:spec': { // R2
    'f:containers': {
      'k:{"name":"sidecar"}': { '.': {}, 'f:command': {}, 'f:image': {}, 'f:name': {} }, // R5, R7, R11 ("sidecar" < "web")
      'k:{"name":"web"}': {
        '.': {},
        'f:args': {}, // R7
        'f:env': {
          'k:{"name":"DB_HOST"}': { '.': {}, 'f:name': {}, 'f:valueFrom': { 'f:configMapKeyRef': {} } }, // R2, R8
          'k:{"name":"MODE"}': { '.': {}, 'f:name': {}, 'f:value': {} },
          'k:{"name":"POD_IP"}': { '.': {}, 'f:name': {}, 'f:valueFrom': { 'f:fieldRef': {} } }, // R8
        },
        'f:image': {},
        'f:name': {},
        'f:ports': {
          'k:{"containerPort":53,"protocol":"UDP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} }, // R5, R11 (53 < 8080)
          'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} }, // R6: protocol keyed, not owned
          'k:{"containerPort":8443,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} },
        },
        'f:resources': { 'f:limits': { 'f:cpu': {}, 'f:memory': {} }, 'f:requests': { 'f:cpu': {} } }, // R4, R12
        'f:volumeMounts': {
          'k:{"mountPath":"/data"}': { '.': {}, 'f:mountPath': {}, 'f:name': {} },
          'k:{"mountPath":"/etc/web"}': { '.': {}, 'f:mountPath': {}, 'f:name': {}, 'f:readOnly': {} },
        },
      },
    },
    'f:nodeSelector': {}, // R8
    'f:restartPolicy': {},
    'f:tolerations': {}, // R7
    'f:volumes': {
      'k:{"name":"config"}': { '.': {}, 'f:configMap': { 'f:items': {}, 'f:name': {} }, 'f:name': {} }, // R7 (items)
      'k:{"name":"data"}': { '.': {}, 'f:emptyDir': {}, 'f:name': {} }, // R3
    },
  },
};

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    generation: 3,
    creationTimestamp: '2026-01-02T03:04:05Z',
    labels: { app: 'web' },
    finalizers: ['example.com/cleanup'],
  },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
    template: {
      metadata: { name: 'ignored-by-kube-but-owned', labels: { app: 'web' } },
      spec: {
        containers: [{
          name: 'web',
          image: 'nginx:1.27',
          ports: [{ name: 'http', containerPort: 80 }],
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
        }],
        imagePullSecrets: [{ name: 'regcred' }],
        securityContext: { runAsNonRoot: true },
      },
    },
  },
};

const deploymentFieldsV1 = {
  'f:metadata': {
    'f:finalizers': { 'v:"example.com/cleanup"': {} }, // R9
    'f:labels': { 'f:app': {} },
  },
  'f:spec': {
    'f:replicas': {},
    'f:selector': {}, // R8: LabelSelector is atomic
    'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} }, // R2, R12
    'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:name': {} }, // R10: not the object's metadata
      'f:spec': {
        'f:containers': {
          'k:{"name":"web"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {} } }, // R6
            'f:readinessProbe': { 'f:httpGet': { 'f:path': {}, 'f:port': {} }, 'f:periodSeconds': {} }, // R2, R12
          },
        },
        'f:imagePullSecrets': { 'k:{"name":"regcred"}': {} }, // R8: atomic item, no `.`, no f:name
        'f:securityContext': { 'f:runAsNonRoot': {} },
      },
    },
  },
};

const service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
  spec: {
    type: 'ClusterIP',
    selector: { app: 'web' },
    ports: [
      { name: 'http', port: 80, targetPort: 8080 },
      { name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' },
      { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
    ],
    sessionAffinity: 'None',
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
  },
};

const serviceFieldsV1 = {
  'f:metadata': { 'f:labels': { 'f:app': {} } },
  'f:spec': {
    'f:ipFamilies': {}, // R7
    'f:ipFamilyPolicy': {}, // R11 ("ipFamilies" < "ipFamilyPolicy")
    'f:ports': {
      'k:{"port":53,"protocol":"UDP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} }, // R5, R11
      'k:{"port":80,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} }, // R6, R12
      'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:protocol': {}, 'f:targetPort': {} },
    },
    'f:selector': {}, // R8
    'f:sessionAffinity': {},
    'f:type': {},
  },
};

const cases = [
  { name: 'Pod', definition: 'io.k8s.api.core.v1.Pod', object: pod, want: podFieldsV1 },
  { name: 'Deployment', definition: 'io.k8s.api.apps.v1.Deployment', object: deployment, want: deploymentFieldsV1 },
  { name: 'Service', definition: 'io.k8s.api.core.v1.Service', object: service, want: serviceFieldsV1 },
];

describe('fieldSetOf a built-in object matches what kube stores for Apply', () => {
  for (const c of cases) {
    test(c.name, () => {
      const node = structuralDefinition(builtinDefinitions, c.definition)!;
      const got = toFieldsV1(fieldSetOf(node, c.object));
      expect(got).toEqual(c.want);
      // Member order is part of the format: compare the JSON text too.
      expect(JSON.stringify(got, null, 1)).toBe(JSON.stringify(c.want, null, 1));
    });
  }
});

describe('fieldsV1 round trip', () => {
  for (const c of cases) {
    test(c.name, () => {
      const set = fieldSetOf(structuralDefinition(builtinDefinitions, c.definition)!, c.object);
      expect(equals(fromFieldsV1(toFieldsV1(set)), set)).toBe(true);
      expect(equals(fromFieldsV1(c.want), set)).toBe(true);
      // Through JSON text, as storage and the wire carry it.
      expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(JSON.stringify(c.want)))))).toBe(JSON.stringify(c.want));
    });
  }
});

describe('options', () => {
  const node = structuralDefinition(builtinDefinitions, 'io.k8s.api.apps.v1.Deployment')!;
  const small = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1 }, status: { replicas: 1 } };
  const rows = [
    {
      name: 'default strips metadata and keeps status (reset fields are the caller\'s)',
      options: {},
      want: { 'f:spec': { 'f:replicas': {} }, 'f:status': { 'f:replicas': {} } },
    },
    {
      name: 'stripMetadata false gives SMD\'s raw set',
      options: { stripMetadata: false },
      want: { 'f:apiVersion': {}, 'f:kind': {}, 'f:metadata': { 'f:name': {} }, 'f:spec': { 'f:replicas': {} }, 'f:status': { 'f:replicas': {} } },
    },
    {
      name: 'resetFields removes status and everything below it',
      options: { resetFields: fromFieldsV1({ 'f:status': {} }) },
      want: { 'f:spec': { 'f:replicas': {} } },
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(JSON.stringify(toFieldsV1(fieldSetOf(node, small, r.options)))).toBe(JSON.stringify(r.want));
    });
  }
});

test('a RawExtension is owned whole (schemaconv\'s special case), not as a granular map', () => {
  const node = structuralDefinition(builtinDefinitions, 'io.k8s.api.apps.v1.ControllerRevision')!;
  const revision = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'web-1' }, data: { spec: { replicas: 1 } }, revision: 1 };
  expect(JSON.stringify(toFieldsV1(fieldSetOf(node, revision)))).toBe(JSON.stringify({ 'f:data': {}, 'f:revision': {} }));
});
