// Warning headers for a pod spec and its metadata, as kube-apiserver sends them
// for Pods and for every pod template (pkg/api/pod/warnings.go: GetWarningsForPod,
// GetWarningsForPodTemplate; the node-label table is pkg/api/node/util.go's).
// Deprecated node labels, annotations and volume plugins, duplicate entries that
// apply would merge away, fractional byte quantities, port clashes, a negative
// grace period, and affinity terms that match nothing. Paths are rooted where the
// pod spec lives: `spec.nodeSelector[...]` for a Pod,
// `spec.template.spec.nodeSelector[...]` for a Deployment's template.
// Not yet: the overlapping projected-path check and the PersistentVolumeClaim
// warnings of ephemeral volume templates (TODO(#10)).
import { goQuote } from '../../../errors/go-quote.js';
import { type FieldPath, path } from '../../../errors/field-errors.js';
import type { KubeObject } from '../../../schema/object.js';
import { parseQuantity, quantityToString, type Quantity } from '../../../schema/quantity.js';
import { type Json, itemsAt, objectAt, stringAt } from './helpers.js';
import { CONTAINER_LISTS } from './pod-spec-defaults.js';

/** pkg/api/node/util.go deprecatedNodeLabels. */
const DEPRECATED_NODE_LABELS: ReadonlyMap<string, string> = new Map([
  ['beta.kubernetes.io/arch', 'deprecated since v1.14; use "kubernetes.io/arch" instead'],
  ['beta.kubernetes.io/os', 'deprecated since v1.14; use "kubernetes.io/os" instead'],
  ['failure-domain.beta.kubernetes.io/region', 'deprecated since v1.17; use "topology.kubernetes.io/region" instead'],
  ['failure-domain.beta.kubernetes.io/zone', 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead'],
  ['beta.kubernetes.io/instance-type', 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead'],
  ['app.kubernetes.io/created-by', 'deprecated since v1.9'],
  ['scheduler.alpha.kubernetes.io/preferAvoidPods', 'deprecated since v1.22; use Taints and Tolerations instead'],
  ['node-role.kubernetes.io/master', 'use "node-role.kubernetes.io/control-plane" instead'],
]);

/** warnings.go deprecatedAnnotations. */
const DEPRECATED_ANNOTATIONS: readonly { readonly key: string; readonly message: string }[] = [
  { key: 'scheduler.alpha.kubernetes.io/critical-pod', message: 'non-functional in v1.16+; use the "priorityClassName" field instead' },
  { key: 'security.alpha.kubernetes.io/sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
  { key: 'security.alpha.kubernetes.io/unsafe-sysctls', message: 'non-functional in v1.11+; use the "sysctls" field instead' },
];

/** Volume sources kube warns about, in warnings.go's order. */
const DEPRECATED_VOLUMES: readonly { readonly source: string; readonly message: string }[] = [
  { source: 'photonPersistentDisk', message: 'deprecated in v1.11, non-functional in v1.16+' },
  { source: 'gitRepo', message: 'deprecated in v1.11' },
  { source: 'scaleIO', message: 'deprecated in v1.16, non-functional in v1.22+' },
  { source: 'flocker', message: 'deprecated in v1.22, non-functional in v1.25+' },
  { source: 'storageos', message: 'deprecated in v1.22, non-functional in v1.25+' },
  { source: 'quobyte', message: 'deprecated in v1.22, non-functional in v1.25+' },
  { source: 'glusterfs', message: 'deprecated in v1.25, non-functional in v1.26+' },
  { source: 'cephfs', message: 'deprecated in v1.28, non-functional in v1.31+' },
  { source: 'rbd', message: 'deprecated in v1.28, non-functional in v1.31+' },
];

const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_MESSAGE = 'non-functional in v1.27+; use the "seccompProfile" field instead';
const NULL_SELECTOR = 'a null labelSelector results in matching no pod';

/** Resources counted in bytes, and the container lists of them, in kube's order of checking. */
const BYTE_RESOURCES = ['memory', 'ephemeral-storage'] as const;
const RESOURCE_LISTS = ['limits', 'requests'] as const;

/** The field names kube's Go structs print in these messages (api.Volume's StorageOS is `storageOS`). */
const VOLUME_FIELD_NAMES: Readonly<Record<string, string>> = { storageos: 'storageOS' };

/** Warnings for a Pod (create and update alike, as kube's pod strategy). */
export function podWarnings(pod: KubeObject): string[] {
  return warningsFor({ spec: objectAt(pod, 'spec') ?? {}, meta: pod.metadata as Json, root: path(), isTemplate: false });
}

/**
 * Warnings for a pod template at `at` (`spec.template`, `template`,
 * `spec.jobTemplate.spec.template`). kube's workload strategies ask on create, and
 * on update only when the generation moved (the spec, so maybe the template, changed).
 */
export function podTemplateWarnings(template: Json | undefined, at: FieldPath): string[] {
  if (template === undefined) return [];
  return warningsFor({ spec: objectAt(template, 'spec') ?? {}, meta: objectAt(template, 'metadata') ?? {}, root: at, isTemplate: true });
}

/** The template warnings of a workload write: always on create, on update when the generation moved. */
export function workloadTemplateWarnings(obj: KubeObject, prev: KubeObject | undefined, at: FieldPath, template: Json | undefined): string[] {
  if (prev !== undefined && obj.metadata.generation === prev.metadata.generation) return [];
  return podTemplateWarnings(template, at);
}

interface Scope {
  readonly spec: Json;
  readonly meta: Json;
  readonly root: FieldPath;
  /** AppArmor annotations are reported for templates only (pods get them through version skew handling). */
  readonly isTemplate: boolean;
}

// Every write of a workload runs these, and nearly all warn about nothing: paths
// are made only for a warning that is sent.
function warningsFor(s: Scope): string[] {
  const sp = s.root.child('spec');
  const annotations = objectAt(s.meta, 'annotations') ?? {};
  const overhead = objectAt(s.spec, 'overhead');
  const affinity = objectAt(s.spec, 'affinity');
  return [
    ...nodeLabelWarnings(s.spec, sp),
    ...annotationWarnings(annotations, s.root),
    ...volumeWarnings(s.spec, sp),
    ...duplicateWarnings(s.spec, sp),
    ...(overhead === undefined ? [] : fractionalWarnings(overhead, () => sp.child('overhead'))),
    ...containerWarnings(s, annotations),
    ...portWarnings(s.spec, sp),
    ...(typeof s.spec.terminationGracePeriodSeconds === 'number' && s.spec.terminationGracePeriodSeconds < 0
      ? [`${sp.child('terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`]
      : []),
    ...(affinity === undefined ? [] : podAffinityWarnings(affinity, sp.child('affinity'))),
  ];
}

function deprecatedNodeLabel(key: string): string | undefined {
  return DEPRECATED_NODE_LABELS.get(key);
}

/** GetWarningsForNodeSelectorTerm: deprecated keys in matchExpressions. */
function nodeSelectorTermWarnings(term: Json | undefined, p: FieldPath): string[] {
  const out: string[] = [];
  itemsAt(term, 'matchExpressions').forEach((e, i) => {
    const key = stringAt(e, 'key');
    const msg = deprecatedNodeLabel(key);
    if (msg !== undefined) out.push(`${p.child('matchExpressions').index(i).child('key')}: ${key} is ${msg}`);
  });
  return out;
}

function nodeLabelWarnings(spec: Json, sp: FieldPath): string[] {
  const out: string[] = [];
  for (const key of Object.keys(objectAt(spec, 'nodeSelector') ?? {})) {
    const msg = deprecatedNodeLabel(key);
    if (msg !== undefined) out.push(`${sp.child('nodeSelector').key(key)}: ${msg}`);
  }
  const nodeAffinity = objectAt(objectAt(spec, 'affinity'), 'nodeAffinity');
  if (nodeAffinity !== undefined) {
    const required = objectAt(nodeAffinity, 'requiredDuringSchedulingIgnoredDuringExecution');
    if (required !== undefined) {
      const tp = sp.child('affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms');
      itemsAt(required, 'nodeSelectorTerms').forEach((term, i) => out.push(...nodeSelectorTermWarnings(term, tp.index(i))));
    }
    const pp = sp.child('affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution');
    itemsAt(nodeAffinity, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((term, i) => {
      out.push(...nodeSelectorTermWarnings(objectAt(term, 'preference'), pp.index(i).child('preference')));
    });
  }
  itemsAt(spec, 'topologySpreadConstraints').forEach((t, i) => {
    const cp = sp.child('topologySpreadConstraints').index(i);
    const key = stringAt(t, 'topologyKey');
    const msg = deprecatedNodeLabel(key);
    if (msg !== undefined) out.push(`${cp.child('topologyKey')}: ${key} is ${msg}`);
    if (objectAt(t, 'labelSelector') === undefined) out.push(`${cp.child('labelSelector')}: ${NULL_SELECTOR}`);
  });
  return out;
}

function annotationWarnings(annotations: Json, root: FieldPath): string[] {
  return DEPRECATED_ANNOTATIONS.filter((d) => Object.hasOwn(annotations, d.key)).map((d) => `${root.child('metadata', 'annotations').key(d.key)}: ${d.message}`);
}

function volumeWarnings(spec: Json, sp: FieldPath): string[] {
  const out: string[] = [];
  itemsAt(spec, 'volumes').forEach((v, i) => {
    for (const d of DEPRECATED_VOLUMES) {
      if (objectAt(v, d.source) !== undefined) out.push(`${sp.child('volumes').index(i).child(VOLUME_FIELD_NAMES[d.source] ?? d.source)}: ${d.message}`);
    }
  });
  return out;
}

/** Duplicate hostAliases IPs and imagePullSecrets names, and empty secret names (apply would merge or drop them). */
function duplicateWarnings(spec: Json, sp: FieldPath): string[] {
  const out: string[] = [];
  const aliases = itemsAt(spec, 'hostAliases');
  const ips = new Set<string>();
  if (aliases.length > 1) {
    aliases.forEach((a, i) => {
      const ip = stringAt(a, 'ip');
      if (ips.has(ip)) out.push(`${sp.child('hostAliases').index(i).child('ip')}: duplicate ip ${goQuote(ip)}`);
      else ips.add(ip);
    });
  }
  const secrets = itemsAt(spec, 'imagePullSecrets');
  const names = new Set<string>();
  if (secrets.length > 1) {
    secrets.forEach((s, i) => {
      const name = stringAt(s, 'name');
      if (names.has(name)) out.push(`${sp.child('imagePullSecrets').index(i).child('name')}: duplicate name ${goQuote(name)}`);
      else names.add(name);
    });
  }
  secrets.forEach((s, i) => {
    if (stringAt(s, 'name') === '') out.push(`${sp.child('imagePullSecrets').index(i).child('name')}: invalid empty name ""`);
  });
  return out;
}

/** Quantity.MilliValue (rounded up, as ScaledValue rounds) is not a whole number of units. */
function isFractional(q: Quantity): boolean {
  if (q.scale >= 0) return false;
  const shift = -q.scale - 3;
  if (shift <= 0) return (q.unscaled * 10n ** BigInt(-shift)) % 1000n !== 0n;
  const divisor = 10n ** BigInt(shift);
  let milli = q.unscaled / divisor;
  if (q.unscaled % divisor !== 0n && q.unscaled > 0n) milli += 1n;
  return milli % 1000n !== 0n;
}

function quantityOf(value: unknown): Quantity | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined) return undefined;
  try {
    return parseQuantity(text);
  } catch {
    // The typed decode refuses malformed quantities before any step runs; nothing to warn about.
    return undefined;
  }
}

/** The canonical text of a quantity that is a fraction of a byte, or undefined (whole, or not a quantity). */
function fractionalText(value: unknown): string | undefined {
  const q = quantityOf(value);
  return q !== undefined && isFractional(q) ? quantityToString(q) : undefined;
}

const fractionalTexts = new Map<string, string | null>();
/** Distinct quantity texts remembered; past this the memo starts over (it only saves work). */
const FRACTIONAL_MEMO_LIMIT = 1024;

/**
 * fractionalText, remembered per text: every workload write asks about the same
 * few memory sizes, and parsing one takes BigInt arithmetic.
 */
function fractionalByteText(value: unknown): string | undefined {
  // Short texts only: the memo must not hold on to a client's megabyte of digits.
  if (typeof value !== 'string' || value.length > 32) return fractionalText(value);
  const known = fractionalTexts.get(value);
  if (known !== undefined) return known ?? undefined;
  const text = fractionalText(value);
  if (fractionalTexts.size >= FRACTIONAL_MEMO_LIMIT) fractionalTexts.clear();
  fractionalTexts.set(value, text ?? null);
  return text;
}

/** memory and ephemeral-storage are bytes: a fraction of a byte is refused by the kubelet. */
function fractionalWarnings(resources: Json, at: () => FieldPath): string[] {
  const out: string[] = [];
  for (const name of BYTE_RESOURCES) {
    if (!Object.hasOwn(resources, name)) continue;
    const text = fractionalByteText(resources[name]);
    if (text !== undefined) out.push(`${at().key(name)}: fractional byte value ${goQuote(text)} is invalid, must be an integer`);
  }
  return out;
}

/** pods.VisitContainersWithPath: init containers, containers, ephemeral containers; `at` makes the container's path. */
function visitContainers(spec: Json, sp: FieldPath, visit: (c: Json, at: () => FieldPath) => void): void {
  for (const list of CONTAINER_LISTS) itemsAt(spec, list).forEach((c, i) => visit(c, () => sp.child(list).index(i)));
}

function containerWarnings(s: Scope, annotations: Json): string[] {
  const out: string[] = [];
  const ap = s.root.child('metadata', 'annotations');
  const podSecurity = objectAt(s.spec, 'securityContext');
  if (objectAt(podSecurity, 'seccompProfile') === undefined && Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) {
    out.push(`${ap.key(SECCOMP_POD_ANNOTATION)}: ${SECCOMP_MESSAGE}`);
  }
  const podAppArmor = objectAt(podSecurity, 'appArmorProfile') !== undefined;
  // Looking up a built key costs more than the rest of a container's checks, and
  // almost no object has per-container annotations: ask only when one might match.
  const perContainer = hasKeyWithPrefix(annotations, SECCOMP_CONTAINER_PREFIX) || hasKeyWithPrefix(annotations, APPARMOR_CONTAINER_PREFIX);
  visitContainers(s.spec, s.root.child('spec'), (c, at) => {
    if (perContainer) {
      const name = stringAt(c, 'name');
      const security = objectAt(c, 'securityContext');
      const seccompKey = SECCOMP_CONTAINER_PREFIX + name;
      if (objectAt(security, 'seccompProfile') === undefined && Object.hasOwn(annotations, seccompKey)) out.push(`${ap.key(seccompKey)}: ${SECCOMP_MESSAGE}`);
      const appArmorKey = APPARMOR_CONTAINER_PREFIX + name;
      const hasAppArmorField = podAppArmor || objectAt(security, 'appArmorProfile') !== undefined;
      if (s.isTemplate && !hasAppArmorField && Object.hasOwn(annotations, appArmorKey)) {
        out.push(`${ap.key(appArmorKey)}: deprecated since v1.30; use the "appArmorProfile" field instead`);
      }
    }
    const resources = objectAt(c, 'resources');
    for (const name of BYTE_RESOURCES) {
      for (const kind of RESOURCE_LISTS) {
        const list = objectAt(resources, kind);
        if (list === undefined || !Object.hasOwn(list, name)) continue;
        const text = fractionalByteText(list[name]);
        if (text !== undefined) out.push(`${at().child('resources', kind).key(name)}: fractional byte value ${goQuote(text)} is invalid, must be an integer`);
      }
    }
    out.push(...envWarnings(c, at));
  });
  return out;
}

function hasKeyWithPrefix(obj: Json, prefix: string): boolean {
  for (const key in obj) if (Object.hasOwn(obj, key) && key.startsWith(prefix)) return true;
  return false;
}

/** A repeated env name: kept by kube, but apply merges by name and may drop one. */
function envWarnings(c: Json, at: () => FieldPath): string[] {
  const env = itemsAt(c, 'env');
  if (env.length < 2) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  env.forEach((e, i) => {
    const name = stringAt(e, 'name');
    if (!seen.has(name)) {
      seen.add(name);
      return;
    }
    // Only X=...$(X)... without valueFrom is a deliberate redefinition.
    const ref = `$(${name})`;
    const value = stringAt(e, 'value');
    const bad = objectAt(e, 'valueFrom') !== undefined || value === ref || !value.includes(ref);
    if (bad) out.push(`${at().child('env').index(i)}: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
  });
  return out;
}

interface PortBlock {
  /** The port's path, made when a later port names it. */
  readonly at: () => FieldPath;
  readonly hostIP: string;
  readonly hostPort: number;
}

/** Go's %+v of an api.ContainerPort. */
function goPort(port: Json): string {
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  return `{Name:${stringAt(port, 'name')} HostPort:${n(port.hostPort)} ContainerPort:${n(port.containerPort)} Protocol:${stringAt(port, 'protocol')} HostIP:${stringAt(port, 'hostIP')}}`;
}

/**
 * Past this many characters of port warnings nothing more could reach the client
 * (the Warning headers carry 4 Ki runes in all), so the check stops: n identical
 * ports would otherwise make n²/2 messages.
 */
const PORT_WARNINGS_BUDGET = 16 * 1024;

/** Ports across all containers that another already claims (same number and protocol). */
function portWarnings(spec: Json, sp: FieldPath): string[] {
  const out: string[] = [];
  let budget = PORT_WARNINGS_BUDGET;
  const warn = (msg: string): void => {
    out.push(msg);
    budget -= msg.length;
  };
  const all = new Map<string, PortBlock[]>();
  visitContainers(spec, sp, (c, container) => {
    const ports = itemsAt(c, 'ports');
    for (let i = 0; i < ports.length && budget > 0; i++) {
      const port = ports[i]!;
      const at = (): FieldPath => container().child('ports').index(i);
      const hostIP = stringAt(port, 'hostIP');
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (hostIP !== '' && hostPort === 0) warn(`${at()}: hostIP set without hostPort: ${goPort(port)}`);
      const key = `${typeof port.containerPort === 'number' ? port.containerPort : 0}/${stringAt(port, 'protocol')}`;
      const others = all.get(key);
      if (others === undefined) {
        all.set(key, [{ at, hostIP, hostPort }]);
        continue;
      }
      for (const other of others) {
        if (budget <= 0) break;
        const a = hostIP === '';
        const b = other.hostIP === '';
        if (hostIP === other.hostIP && hostPort === other.hostPort) warn(`${at()}: duplicate port definition with ${other.at()}`);
        else if (hostPort === 0 || other.hostPort === 0) warn(`${at()}: overlapping port definition with ${other.at()}`);
        else if (hostPort === other.hostPort && (a || b) && !(a && b)) warn(`${at()}: dangerously ambiguous port definition with ${other.at()}`);
      }
      others.push({ at, hostIP, hostPort });
    }
  });
  return out;
}

function podAffinityWarnings(affinity: Json, ap: FieldPath): string[] {
  const out: string[] = [];
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = objectAt(affinity, kind);
    if (a === undefined) continue;
    const rp = ap.child(kind, 'requiredDuringSchedulingIgnoredDuringExecution');
    itemsAt(a, 'requiredDuringSchedulingIgnoredDuringExecution').forEach((t, i) => {
      if (objectAt(t, 'labelSelector') === undefined) out.push(`${rp.index(i).child('labelSelector')}: ${NULL_SELECTOR}`);
    });
    const pp = ap.child(kind, 'preferredDuringSchedulingIgnoredDuringExecution');
    itemsAt(a, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((t, i) => {
      if (objectAt(objectAt(t, 'podAffinityTerm'), 'labelSelector') === undefined) out.push(`${pp.index(i).child('podAffinityTerm', 'labelSelector')}: ${NULL_SELECTOR}`);
    });
  }
  return out;
}
