// kube's SetDefaults_PodSpec / _Container / _Probe / _Volume for the pod spec
// shared by Pods, PodTemplates and ReplicationController templates. Values a
// client leaves out are filled exactly as kube-apiserver fills them, so
// `kubectl get -o yaml` round-trips the same document.
import { type Json, itemsAt, ensureObject, objectAt, setDefault, stringAt } from './helpers.js';

export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
const VOLUME_SOURCES_WITH_MODE = ['secret', 'configMap', 'projected', 'downwardAPI'] as const;
/** 0644: the file mode kube gives projected files by default. */
const DEFAULT_MODE = 0o644;

/** "latest" (explicit or implied) pulls Always; any other tag or a digest pulls IfNotPresent. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image === '' || image !== image.trim()) return 'IfNotPresent';
  const at = image.indexOf('@');
  const ref = at >= 0 ? image.slice(0, at) : image;
  const lastSlash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  const tag = colon > lastSlash ? ref.slice(colon + 1) : '';
  // Upper-case repository names fail kube's reference parser, which then sees no tag.
  const repo = colon > lastSlash ? ref.slice(0, colon) : ref;
  const path = lastSlash >= 0 && /[.:]|^localhost$/.test(repo.slice(0, repo.indexOf('/'))) ? repo.slice(repo.indexOf('/') + 1) : repo;
  if (/[A-Z]/.test(path)) return 'IfNotPresent';
  if (tag === '' && at < 0) return 'Always';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: Json | undefined): void {
  if (probe === undefined) return;
  setDefault(probe, 'timeoutSeconds', 1);
  setDefault(probe, 'periodSeconds', 10);
  setDefault(probe, 'successThreshold', 1);
  setDefault(probe, 'failureThreshold', 3);
  const httpGet = objectAt(probe, 'httpGet');
  if (httpGet !== undefined) {
    setDefault(httpGet, 'path', '/');
    setDefault(httpGet, 'scheme', 'HTTP');
  }
}

function defaultFieldRefs(container: Json): void {
  for (const env of itemsAt(container, 'env')) {
    const fieldRef = objectAt(objectAt(env, 'valueFrom'), 'fieldRef');
    if (fieldRef !== undefined) setDefault(fieldRef, 'apiVersion', 'v1');
  }
}

export function defaultContainer(c: Json, hostNetwork: boolean): void {
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'imagePullPolicy', defaultPullPolicy(stringAt(c, 'image')));
  for (const port of itemsAt(c, 'ports')) {
    setDefault(port, 'protocol', 'TCP');
    if (hostNetwork) setDefault(port, 'hostPort', port.containerPort);
  }
  ensureObject(c, 'resources');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(objectAt(c, probe));
  defaultFieldRefs(c);
}

function defaultVolume(v: Json): void {
  const keys = Object.keys(v).filter((k) => k !== 'name');
  if (keys.length === 0) v.emptyDir = {};
  for (const source of VOLUME_SOURCES_WITH_MODE) {
    const s = objectAt(v, source);
    if (s !== undefined) setDefault(s, 'defaultMode', DEFAULT_MODE);
  }
  const hostPath = objectAt(v, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
}

/**
 * A Pod's own default (kube's SetDefaults_Pod, never a template's): each resource
 * a container limits but does not request is requested at its limit.
 */
export function defaultPodRequests(spec: Json): void {
  for (const list of CONTAINER_LISTS) {
    for (const c of itemsAt(spec, list)) {
      const resources = ensureObject(c, 'resources');
      const limits = objectAt(resources, 'limits');
      if (limits === undefined || Object.keys(limits).length === 0) continue;
      const requests = ensureObject(resources, 'requests');
      for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) requests[k] = v;
    }
  }
}

export function defaultPodSpec(spec: Json): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  const hostNetwork = spec.hostNetwork === true;
  for (const list of CONTAINER_LISTS) for (const c of itemsAt(spec, list)) defaultContainer(c, hostNetwork);
  for (const v of itemsAt(spec, 'volumes')) defaultVolume(v);
}
