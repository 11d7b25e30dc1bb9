// Derives api-resources-1.36.txt: the rows `kubectl api-resources -o wide` shows
// for a Kubernetes 1.36 cluster with default settings, from kube's facts:
//   - names, scope, kinds and verbs: the 1.36 OpenAPI document's paths
//     (../../../../shared/reference/kubernetes-1.36-openapi-v2.json; x-kubernetes-action
//     per operation, x-kubernetes-group-version-kind), GA versions only (no alpha
//     or beta versions are served by default), subresources left out as kubectl does;
//   - a group's preferred version: the newest GA version (autoscaling/v2), which is
//     the one discovery lists first, so kubectl shows each resource once;
//   - short names and categories: kube's pkg/registry/**/storage/storage.go
//     ShortNames() / Categories() (SHORT_NAMES and CATEGORIES below).
// Rows are sorted as kubectl sorts them (by group, then by name). Re-run with
// `node test/e2e/data/derive-api-resources.mjs > test/e2e/data/api-resources-1.36.txt`.
import { readFileSync } from 'node:fs';

const SHORT_NAMES = {
  '/componentstatuses': ['cs'],
  '/configmaps': ['cm'],
  '/endpoints': ['ep'],
  '/events': ['ev'],
  '/limitranges': ['limits'],
  '/namespaces': ['ns'],
  '/nodes': ['no'],
  '/persistentvolumeclaims': ['pvc'],
  '/persistentvolumes': ['pv'],
  '/pods': ['po'],
  '/replicationcontrollers': ['rc'],
  '/resourcequotas': ['quota'],
  '/serviceaccounts': ['sa'],
  '/services': ['svc'],
  'admissionregistration.k8s.io/mutatingadmissionpolicies': ['map'],
  'apiextensions.k8s.io/customresourcedefinitions': ['crd', 'crds'],
  'apps/daemonsets': ['ds'],
  'apps/deployments': ['deploy'],
  'apps/replicasets': ['rs'],
  'apps/statefulsets': ['sts'],
  'autoscaling/horizontalpodautoscalers': ['hpa'],
  'batch/cronjobs': ['cj'],
  'certificates.k8s.io/certificatesigningrequests': ['csr'],
  'events.k8s.io/events': ['ev'],
  'networking.k8s.io/ingresses': ['ing'],
  'networking.k8s.io/ipaddresses': ['ip'],
  'networking.k8s.io/networkpolicies': ['netpol'],
  'policy/poddisruptionbudgets': ['pdb'],
  'scheduling.k8s.io/priorityclasses': ['pc'],
  'storage.k8s.io/storageclasses': ['sc'],
  'storage.k8s.io/volumeattributesclasses': ['vac'],
};

const API_EXTENSIONS = ['api-extensions'];
const ALL = ['all'];
const CATEGORIES = {
  '/pods': ALL,
  '/replicationcontrollers': ALL,
  '/services': ALL,
  'admissionregistration.k8s.io/mutatingadmissionpolicies': API_EXTENSIONS,
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': API_EXTENSIONS,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': API_EXTENSIONS,
  'admissionregistration.k8s.io/validatingadmissionpolicies': API_EXTENSIONS,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': API_EXTENSIONS,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': API_EXTENSIONS,
  'apiextensions.k8s.io/customresourcedefinitions': API_EXTENSIONS,
  'apiregistration.k8s.io/apiservices': API_EXTENSIONS,
  'apps/daemonsets': ALL,
  'apps/deployments': ALL,
  'apps/replicasets': ALL,
  'apps/statefulsets': ALL,
  'autoscaling/horizontalpodautoscalers': ALL,
  'batch/cronjobs': ALL,
  'batch/jobs': ALL,
};

const ACTION_VERBS = { get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update', patch: 'patch', delete: 'delete', deletecollection: 'deletecollection' };
const GA = /^v\d+$/;

const doc = JSON.parse(readFileSync(new URL('../../../../shared/reference/kubernetes-1.36-openapi-v2.json', import.meta.url), 'utf8'));
const byVersion = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(?:watch\/)?(?:namespaces\/\{namespace\}\/)?([^/]+)(\/\{name\})?$/.exec(path);
  if (m === null) continue;
  const group = m[2] ?? '';
  const version = m[1] ?? m[3];
  if (!GA.test(version)) continue;
  const name = m[4];
  // /api/v1/namespaces/{name} is the namespaces resource itself, not a namespaced path.
  const namespaced = path.includes('/namespaces/{namespace}/');
  const key = `${group}/${version}/${name}`;
  const row = byVersion.get(key) ?? { group, version, name, namespaced: false, kind: '', verbs: new Set() };
  row.namespaced ||= namespaced;
  for (const op of Object.values(item)) {
    if (typeof op !== 'object' || op === null || op['x-kubernetes-action'] === undefined) continue;
    row.kind ||= op['x-kubernetes-group-version-kind']?.kind ?? '';
    const verb = ACTION_VERBS[op['x-kubernetes-action']];
    if (verb !== undefined) row.verbs.add(verb);
  }
  byVersion.set(key, row);
}

// One row per group/resource, from the group's preferred (newest GA) version.
const versionRank = (v) => Number(v.slice(1));
const preferred = new Map();
for (const row of byVersion.values()) {
  const gr = `${row.group}/${row.name}`;
  const seen = preferred.get(gr);
  if (seen === undefined || versionRank(row.version) > versionRank(seen.version)) preferred.set(gr, row);
}
const rows = [...preferred.values()].sort((a, b) => (a.group === b.group ? (a.name < b.name ? -1 : 1) : a.group < b.group ? -1 : 1));
const lines = ['NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\tVERBS\tCATEGORIES'];
for (const r of rows) {
  const gr = `${r.group}/${r.name}`;
  lines.push(
    [
      r.name,
      (SHORT_NAMES[gr] ?? []).join(','),
      r.group === '' ? r.version : `${r.group}/${r.version}`,
      String(r.namespaced),
      r.kind,
      [...r.verbs].sort().join(','),
      (CATEGORIES[gr] ?? []).join(','),
    ].join('\t'),
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
