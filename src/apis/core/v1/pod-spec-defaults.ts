// kube's SetDefaults_PodSpec / _Container / _Probe / _Volume for the pod spec
// shared by Pods, PodTemplates and ReplicationController templates. Values a
// client leaves out are filled exactly as kube-apiserver fills them, so
// `kubectl get -o yaml` round-trips the same document.
//
// Every write of a pod or workload runs these, so they allocate only the fields
// they add: lists are walked by index (V8 does not always elide a for...of
// iterator here, and each one is an object per list per write), and no key list,
// substring or literal array is made to decide a default.
import { type Json, itemsAt, ensureObject, objectAt, setDefault, stringAt } from './helpers.js';

export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const VOLUME_SOURCES_WITH_MODE = ['secret', 'configMap', 'projected', 'downwardAPI'] as const;
/** 0644: the file mode kube gives projected files by default. */
const DEFAULT_MODE = 0o644;

/**
 * "latest" (explicit or implied) pulls Always; any other tag or a digest pulls IfNotPresent.
 * Read by index, never sliced: every container of every write asks, and the pieces
 * (reference, tag, repository, domain, path) are only ever compared.
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image === '' || image !== image.trim()) return 'IfNotPresent';
  const at = image.indexOf('@');
  // The reference is image[0, refEnd): everything before a digest.
  const refEnd = at >= 0 ? at : image.length;
  const lastSlash = lastIndexBefore(image, '/', refEnd);
  const colon = lastIndexBefore(image, ':', refEnd);
  const hasTag = colon > lastSlash;
  // The repository is image[0, repoEnd); its first component is a registry domain
  // when it has a dot or a port, or is localhost, and is then not part of the path.
  const repoEnd = hasTag ? colon : refEnd;
  const firstSlash = image.indexOf('/');
  const hasDomain =
    lastSlash >= 0 && (occursBefore(image, '.', firstSlash) || occursBefore(image, ':', firstSlash) || (firstSlash === 9 && image.startsWith('localhost')));
  // Upper-case repository names fail kube's reference parser, which then sees no tag.
  if (hasUpperCase(image, hasDomain ? firstSlash + 1 : 0, repoEnd)) return 'IfNotPresent';
  const tagLength = hasTag ? refEnd - colon - 1 : 0;
  if (tagLength === 0 && at < 0) return 'Always';
  return tagLength === 6 && image.startsWith('latest', colon + 1) ? 'Always' : 'IfNotPresent';
}

/** The last index of `ch` in s[0, end), or -1. */
function lastIndexBefore(s: string, ch: string, end: number): number {
  return end === 0 ? -1 : s.lastIndexOf(ch, end - 1);
}

/** Whether `ch` occurs in s[0, end). */
function occursBefore(s: string, ch: string, end: number): boolean {
  const i = s.indexOf(ch);
  return i >= 0 && i < end;
}

/** Whether s[from, to) has an ASCII upper-case letter. */
function hasUpperCase(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
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
  const env = itemsAt(container, 'env');
  for (let i = 0; i < env.length; i++) {
    const fieldRef = objectAt(objectAt(env[i], 'valueFrom'), 'fieldRef');
    if (fieldRef !== undefined) setDefault(fieldRef, 'apiVersion', 'v1');
  }
}

export function defaultContainer(c: Json, hostNetwork: boolean): void {
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'imagePullPolicy', defaultPullPolicy(stringAt(c, 'image')));
  const ports = itemsAt(c, 'ports');
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i]!;
    setDefault(port, 'protocol', 'TCP');
    if (hostNetwork) setDefault(port, 'hostPort', port.containerPort);
  }
  ensureObject(c, 'resources');
  for (let i = 0; i < PROBES.length; i++) defaultProbe(objectAt(c, PROBES[i]!));
  defaultFieldRefs(c);
}

/** Whether the volume names a source (any own key but `name`); for...in makes no key list. */
function hasFieldBesidesName(v: Json): boolean {
  for (const key in v) if (key !== 'name' && Object.hasOwn(v, key)) return true;
  return false;
}

function defaultVolume(v: Json): void {
  if (!hasFieldBesidesName(v)) v.emptyDir = {};
  for (let i = 0; i < VOLUME_SOURCES_WITH_MODE.length; i++) {
    const s = objectAt(v, VOLUME_SOURCES_WITH_MODE[i]!);
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
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const containers = itemsAt(spec, CONTAINER_LISTS[l]!);
    for (let i = 0; i < containers.length; i++) defaultContainer(containers[i]!, hostNetwork);
  }
  const volumes = itemsAt(spec, 'volumes');
  for (let i = 0; i < volumes.length; i++) defaultVolume(volumes[i]!);
}
