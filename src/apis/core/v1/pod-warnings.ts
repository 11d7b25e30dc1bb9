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
import { goQuote } from '../../../schema/go-quote.js';
import { type FieldPath, path } from '../../../schema/field-errors.js';
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
  const out: string[] = [];
  addWarnings(out, objectAt(pod, 'spec') ?? NO_FIELDS, pod.metadata as Json, POD_ROOT, false);
  return out;
}

/**
 * Warnings for a pod template at `at` (`spec.template`, `template`,
 * `spec.jobTemplate.spec.template`). kube's workload strategies ask on create, and
 * on update only when the generation moved (the spec, so maybe the template, changed).
 */
export function podTemplateWarnings(template: Json | undefined, at: FieldPath): string[] {
  const out: string[] = [];
  addPodTemplateWarnings(out, template, at);
  return out;
}

/** podTemplateWarnings, appended to `out` (for strategies that warn about more than the template). */
export function addPodTemplateWarnings(out: string[], template: Json | undefined, at: FieldPath): void {
  if (template === undefined) return;
  addWarnings(out, objectAt(template, 'spec') ?? NO_FIELDS, objectAt(template, 'metadata'), at, true);
}

/** The template warnings of a workload write: always on create, on update when the generation moved. */
export function workloadTemplateWarnings(obj: KubeObject, prev: KubeObject | undefined, at: FieldPath, template: Json | undefined): string[] {
  const out: string[] = [];
  addWorkloadTemplateWarnings(out, obj, prev, at, template);
  return out;
}

/** workloadTemplateWarnings, appended to `out`. */
export function addWorkloadTemplateWarnings(out: string[], obj: KubeObject, prev: KubeObject | undefined, at: FieldPath, template: Json | undefined): void {
  if (prev !== undefined && obj.metadata.generation === prev.metadata.generation) return;
  addPodTemplateWarnings(out, template, at);
}

/** Read in place of a missing spec: nothing here writes to it. */
const NO_FIELDS: Json = Object.freeze({});
const POD_ROOT = path();

// Every write of a workload runs these, and nearly all warn about nothing, so the
// happy path allocates nothing but the answer's list: each check appends to it and
// builds a path (and the message) only for a warning it sends, from `root` (where
// the pod spec's parent lives). Hot lists are walked by index, since V8 does not
// always elide a for...of iterator here; and no closure captures a loop variable,
// since that alone gives every iteration a context object, closure made or not.
// `isTemplate`: AppArmor annotations are reported for templates only (pods get
// them through version skew handling).
function addWarnings(out: string[], spec: Json, meta: Json | undefined, root: FieldPath, isTemplate: boolean): void {
  const annotations = objectAt(meta, 'annotations');
  addNodeLabelWarnings(out, spec, root);
  if (annotations !== undefined) addAnnotationWarnings(out, annotations, root);
  addVolumeWarnings(out, spec, root);
  addDuplicateWarnings(out, spec, root);
  const overhead = objectAt(spec, 'overhead');
  if (overhead !== undefined) {
    for (const name of BYTE_RESOURCES) {
      const text = Object.hasOwn(overhead, name) ? fractionalByteText(overhead[name]) : undefined;
      if (text !== undefined) out.push(fractionalMessage(root.child('spec', 'overhead').key(name), text));
    }
  }
  addContainerWarnings(out, spec, annotations, root, isTemplate);
  if (portsMayWarn(spec)) addPortWarnings(out, spec, root.child('spec'));
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    out.push(`${root.child('spec', 'terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  const affinity = objectAt(spec, 'affinity');
  if (affinity !== undefined) addPodAffinityWarnings(out, affinity, root);
}

/** Whether a node selector term has a deprecated key in matchExpressions (its path is made only then). */
function hasDeprecatedKey(term: Json | undefined): boolean {
  const expressions = itemsAt(term, 'matchExpressions');
  for (let i = 0; i < expressions.length; i++) if (DEPRECATED_NODE_LABELS.has(stringAt(expressions[i], 'key'))) return true;
  return false;
}

/** GetWarningsForNodeSelectorTerm: deprecated keys in matchExpressions; `at` is the term's path. */
function addNodeSelectorTermWarnings(out: string[], term: Json | undefined, at: FieldPath): void {
  const expressions = itemsAt(term, 'matchExpressions');
  for (let i = 0; i < expressions.length; i++) {
    const key = stringAt(expressions[i], 'key');
    const msg = DEPRECATED_NODE_LABELS.get(key);
    if (msg !== undefined) out.push(`${at.child('matchExpressions').index(i).child('key')}: ${key} is ${msg}`);
  }
}

function addNodeLabelWarnings(out: string[], spec: Json, root: FieldPath): void {
  const nodeSelector = objectAt(spec, 'nodeSelector');
  // for...in with hasOwn visits the own keys in Object.keys order without making the list.
  for (const key in nodeSelector) {
    if (!Object.hasOwn(nodeSelector, key)) continue;
    const msg = DEPRECATED_NODE_LABELS.get(key);
    if (msg !== undefined) out.push(`${root.child('spec', 'nodeSelector').key(key)}: ${msg}`);
  }
  const nodeAffinity = objectAt(objectAt(spec, 'affinity'), 'nodeAffinity');
  if (nodeAffinity !== undefined) {
    const required = objectAt(nodeAffinity, 'requiredDuringSchedulingIgnoredDuringExecution');
    const terms = itemsAt(required, 'nodeSelectorTerms');
    for (let i = 0; i < terms.length; i++) {
      if (!hasDeprecatedKey(terms[i])) continue;
      const at = root.child('spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms').index(i);
      addNodeSelectorTermWarnings(out, terms[i], at);
    }
    const preferred = itemsAt(nodeAffinity, 'preferredDuringSchedulingIgnoredDuringExecution');
    for (let i = 0; i < preferred.length; i++) {
      const term = objectAt(preferred[i], 'preference');
      if (!hasDeprecatedKey(term)) continue;
      const at = root.child('spec', 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i).child('preference');
      addNodeSelectorTermWarnings(out, term, at);
    }
  }
  const constraints = itemsAt(spec, 'topologySpreadConstraints');
  for (let i = 0; i < constraints.length; i++) {
    const t = constraints[i]!;
    const key = stringAt(t, 'topologyKey');
    const msg = DEPRECATED_NODE_LABELS.get(key);
    if (msg !== undefined) out.push(`${root.child('spec', 'topologySpreadConstraints').index(i).child('topologyKey')}: ${key} is ${msg}`);
    if (objectAt(t, 'labelSelector') === undefined) out.push(`${root.child('spec', 'topologySpreadConstraints').index(i).child('labelSelector')}: ${NULL_SELECTOR}`);
  }
}

function addAnnotationWarnings(out: string[], annotations: Json, root: FieldPath): void {
  for (let i = 0; i < DEPRECATED_ANNOTATIONS.length; i++) {
    const d = DEPRECATED_ANNOTATIONS[i]!;
    if (Object.hasOwn(annotations, d.key)) out.push(`${root.child('metadata', 'annotations').key(d.key)}: ${d.message}`);
  }
}

function addVolumeWarnings(out: string[], spec: Json, root: FieldPath): void {
  const volumes = itemsAt(spec, 'volumes');
  for (let i = 0; i < volumes.length; i++) {
    for (let j = 0; j < DEPRECATED_VOLUMES.length; j++) {
      const d = DEPRECATED_VOLUMES[j]!;
      if (objectAt(volumes[i], d.source) === undefined) continue;
      out.push(`${root.child('spec', 'volumes').index(i).child(VOLUME_FIELD_NAMES[d.source] ?? d.source)}: ${d.message}`);
    }
  }
}

/** Duplicate hostAliases IPs and imagePullSecrets names, and empty secret names (apply would merge or drop them). */
function addDuplicateWarnings(out: string[], spec: Json, root: FieldPath): void {
  const aliases = itemsAt(spec, 'hostAliases');
  if (aliases.length > 1) {
    const ips = new Set<string>();
    for (let i = 0; i < aliases.length; i++) {
      const ip = stringAt(aliases[i], 'ip');
      if (ips.has(ip)) out.push(`${root.child('spec', 'hostAliases').index(i).child('ip')}: duplicate ip ${goQuote(ip)}`);
      else ips.add(ip);
    }
  }
  const secrets = itemsAt(spec, 'imagePullSecrets');
  if (secrets.length > 1) {
    const names = new Set<string>();
    for (let i = 0; i < secrets.length; i++) {
      const name = stringAt(secrets[i], 'name');
      if (names.has(name)) out.push(`${root.child('spec', 'imagePullSecrets').index(i).child('name')}: duplicate name ${goQuote(name)}`);
      else names.add(name);
    }
  }
  for (let i = 0; i < secrets.length; i++) {
    if (stringAt(secrets[i], 'name') === '') out.push(`${root.child('spec', 'imagePullSecrets').index(i).child('name')}: invalid empty name ""`);
  }
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
function fractionalMessage(at: FieldPath, text: string): string {
  return `${at}: fractional byte value ${goQuote(text)} is invalid, must be an integer`;
}

/** The path of `spec.<list>[i]` under `root`, for a container that warns. */
function containerPath(root: FieldPath, list: string, i: number): FieldPath {
  return root.child('spec', list).index(i);
}

/** Per container, in pods.VisitContainersWithPath order: annotations naming it, fractional bytes, repeated env names. */
function addContainerWarnings(out: string[], spec: Json, annotations: Json | undefined, root: FieldPath, isTemplate: boolean): void {
  const podSecurity = objectAt(spec, 'securityContext');
  if (annotations !== undefined && objectAt(podSecurity, 'seccompProfile') === undefined && Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) {
    out.push(`${root.child('metadata', 'annotations').key(SECCOMP_POD_ANNOTATION)}: ${SECCOMP_MESSAGE}`);
  }
  const podAppArmor = objectAt(podSecurity, 'appArmorProfile') !== undefined;
  // Looking up a built key costs more than the rest of a container's checks, and
  // almost no object has per-container annotations: ask only when one might match.
  const perContainer =
    annotations !== undefined && (hasKeyWithPrefix(annotations, SECCOMP_CONTAINER_PREFIX) || hasKeyWithPrefix(annotations, APPARMOR_CONTAINER_PREFIX))
      ? annotations
      : undefined;
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const list = CONTAINER_LISTS[l]!;
    const containers = itemsAt(spec, list);
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i]!;
      if (perContainer !== undefined) addContainerAnnotationWarnings(out, c, perContainer, podAppArmor, root, isTemplate);
      const resources = objectAt(c, 'resources');
      for (let r = 0; r < BYTE_RESOURCES.length; r++) {
        const name = BYTE_RESOURCES[r]!;
        for (let k = 0; k < RESOURCE_LISTS.length; k++) {
          const kind = RESOURCE_LISTS[k]!;
          const amounts = objectAt(resources, kind);
          if (amounts === undefined || !Object.hasOwn(amounts, name)) continue;
          const text = fractionalByteText(amounts[name]);
          if (text !== undefined) out.push(fractionalMessage(containerPath(root, list, i).child('resources', kind).key(name), text));
        }
      }
      const env = itemsAt(c, 'env');
      if (hasRepeatedName(env)) addEnvWarnings(out, env, root, list, i);
    }
  }
}

/** The seccomp and AppArmor annotations that name container `c`, without the field that replaces them. */
function addContainerAnnotationWarnings(out: string[], c: Json, annotations: Json, podAppArmor: boolean, root: FieldPath, isTemplate: boolean): void {
  const name = stringAt(c, 'name');
  const security = objectAt(c, 'securityContext');
  const seccompKey = SECCOMP_CONTAINER_PREFIX + name;
  if (objectAt(security, 'seccompProfile') === undefined && Object.hasOwn(annotations, seccompKey)) {
    out.push(`${root.child('metadata', 'annotations').key(seccompKey)}: ${SECCOMP_MESSAGE}`);
  }
  const appArmorKey = APPARMOR_CONTAINER_PREFIX + name;
  const hasAppArmorField = podAppArmor || objectAt(security, 'appArmorProfile') !== undefined;
  if (isTemplate && !hasAppArmorField && Object.hasOwn(annotations, appArmorKey)) {
    out.push(`${root.child('metadata', 'annotations').key(appArmorKey)}: deprecated since v1.30; use the "appArmorProfile" field instead`);
  }
}

function hasKeyWithPrefix(obj: Json, prefix: string): boolean {
  for (const key in obj) if (Object.hasOwn(obj, key) && key.startsWith(prefix)) return true;
  return false;
}

/**
 * Lists up to this long are searched for a repeat pair by pair, which makes
 * nothing; a longer one (a hostile one too) goes straight to the check, whose Set
 * keeps it linear.
 */
const PAIRWISE_LIMIT = 16;

/** Whether two env entries might share a name (false only when none do). */
function hasRepeatedName(env: readonly Json[]): boolean {
  if (env.length < 2) return false;
  if (env.length > PAIRWISE_LIMIT) return true;
  for (let i = 1; i < env.length; i++) {
    const name = stringAt(env[i], 'name');
    for (let j = 0; j < i; j++) if (stringAt(env[j], 'name') === name) return true;
  }
  return false;
}

/** A repeated env name: kept by kube, but apply merges by name and may drop one (container `list[index]`). */
function addEnvWarnings(out: string[], env: readonly Json[], root: FieldPath, list: string, index: number): void {
  const seen = new Set<string>();
  for (let i = 0; i < env.length; i++) {
    const e = env[i]!;
    const name = stringAt(e, 'name');
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    // Only X=...$(X)... without valueFrom is a deliberate redefinition.
    const ref = `$(${name})`;
    const value = stringAt(e, 'value');
    const bad = objectAt(e, 'valueFrom') !== undefined || value === ref || !value.includes(ref);
    if (bad) out.push(`${containerPath(root, list, index).child('env').index(i)}: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
  }
}

/** pods.VisitContainersWithPath: init containers, containers, ephemeral containers; `at` makes the container's path. */
function visitContainers(spec: Json, sp: FieldPath, visit: (c: Json, at: () => FieldPath) => void): void {
  for (const list of CONTAINER_LISTS) itemsAt(spec, list).forEach((c, i) => visit(c, () => sp.child(list).index(i)));
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

function containerPortOf(port: Json | undefined): number {
  const n = port?.containerPort;
  return typeof n === 'number' ? n : 0;
}

/** The same containerPort and protocol: the key addPortWarnings groups ports by. */
function samePortKey(a: Json | undefined, b: Json): boolean {
  return containerPortOf(a) === containerPortOf(b) && stringAt(a, 'protocol') === stringAt(b, 'protocol');
}

/**
 * Whether addPortWarnings could say anything: false only when no port sets hostIP
 * and no two ports share a number and protocol, which is every ordinary pod, and
 * is found out without the index the check builds. Past PAIRWISE_LIMIT ports it
 * leaves the question to the check.
 */
function portsMayWarn(spec: Json): boolean {
  let seen = 0;
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const containers = itemsAt(spec, CONTAINER_LISTS[l]!);
    for (let c = 0; c < containers.length; c++) {
      const ports = itemsAt(containers[c], 'ports');
      for (let p = 0; p < ports.length; p++) {
        const port = ports[p]!;
        if (stringAt(port, 'hostIP') !== '' || seen === PAIRWISE_LIMIT || repeatsEarlierPort(spec, port, seen)) return true;
        seen++;
      }
    }
  }
  return false;
}

/** Whether one of the first `count` ports (across all containers, in visiting order) has `port`'s key. */
function repeatsEarlierPort(spec: Json, port: Json, count: number): boolean {
  let left = count;
  for (let l = 0; l < CONTAINER_LISTS.length; l++) {
    const containers = itemsAt(spec, CONTAINER_LISTS[l]!);
    for (let c = 0; c < containers.length; c++) {
      const ports = itemsAt(containers[c], 'ports');
      for (let p = 0; p < ports.length; p++) {
        if (left-- === 0) return false;
        if (samePortKey(ports[p], port)) return true;
      }
    }
  }
  return false;
}

/**
 * Past this many characters of port warnings nothing more could reach the client
 * (the Warning headers carry 4 Ki runes in all), so the check stops: n identical
 * ports would otherwise make n²/2 messages.
 */
const PORT_WARNINGS_BUDGET = 16 * 1024;

/** Ports across all containers that another already claims (same number and protocol); `sp` is the spec's path. */
function addPortWarnings(out: string[], spec: Json, sp: FieldPath): void {
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
      const key = `${containerPortOf(port)}/${stringAt(port, 'protocol')}`;
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
}

const POD_AFFINITY_KINDS = ['podAffinity', 'podAntiAffinity'] as const;

function addPodAffinityWarnings(out: string[], affinity: Json, root: FieldPath): void {
  for (const kind of POD_AFFINITY_KINDS) {
    const a = objectAt(affinity, kind);
    if (a === undefined) continue;
    const required = itemsAt(a, 'requiredDuringSchedulingIgnoredDuringExecution');
    for (let i = 0; i < required.length; i++) {
      if (objectAt(required[i], 'labelSelector') !== undefined) continue;
      out.push(`${root.child('spec', 'affinity', kind, 'requiredDuringSchedulingIgnoredDuringExecution').index(i).child('labelSelector')}: ${NULL_SELECTOR}`);
    }
    const preferred = itemsAt(a, 'preferredDuringSchedulingIgnoredDuringExecution');
    for (let i = 0; i < preferred.length; i++) {
      if (objectAt(objectAt(preferred[i], 'podAffinityTerm'), 'labelSelector') !== undefined) continue;
      const at = root.child('spec', 'affinity', kind, 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
      out.push(`${at.child('podAffinityTerm', 'labelSelector')}: ${NULL_SELECTOR}`);
    }
  }
}
