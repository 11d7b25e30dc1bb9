// Validation of the pod spec shared by Pods, PodTemplates and RC templates
// (a practical subset of kube's ValidatePodSpec: the rules users hit with
// kubectl). Paths and messages are kube's. Every container needs an image, in a
// template too; only a Pod's own spec refuses one with surrounding whitespace
// (kube's validateContainersOnlyForPod: a template's " " is a token some tools use).
// Every write of a pod or a workload runs this, so paths below the container are
// made only where an error is reported (most objects are valid), and quantities
// are parsed once per distinct text.
import { type FieldError, type FieldPath, duplicate, forbiddenField, invalidValue, notSupported, required } from '../../../schema/field-errors.js';
import { inclusiveRangeError, isValidPortName, matchesPortName, validatePortNumber } from '../../../registry/validation/common.js';
import { addLabelErrors } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain, matchesDNS1123Label, matchesDNS1123Subdomain } from '../../../registry/validation/names.js';
import { PROTOCOLS } from './endpoints.js';
import { type Json, itemsAt, objectAt, stringAt } from './helpers.js';
import { parseQuantity } from './quantity.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'] as const;
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'] as const;
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
const MESSAGE_POLICIES = ['FallbackToLogsOnError', 'File'] as const;
const TOLERATION_OPERATORS = ['Equal', 'Exists'] as const;
const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] as const;
const MAX_INT32 = 2147483647;
const ENV_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;

/** The lists of containers, in the order kube validates them. */
const CONTAINER_LISTS = ['initContainers', 'containers'] as const;
const NAMED_LABEL_FIELDS = ['hostname', 'subdomain'] as const;

export interface PodSpecOptions {
  /** A Pod's own spec, not a template's: images with leading or trailing whitespace are refused. */
  readonly isPod: boolean;
}

// Every check below asks first whether the value is fine and builds a path (and
// an error) only when it is not: a valid pod is the common case, and its
// validation should allocate next to nothing.

/** Whether oneOf lets `value` pass: one of `allowed`, or empty where empty is allowed. */
function isOneOf(value: string, allowed: readonly string[], requiredIfEmpty = true): boolean {
  return value === '' ? !requiredIfEmpty : allowed.includes(value);
}

/** What oneOf reports for a value isOneOf refused: empty is missing, anything else not supported. */
function oneOfError(value: string, allowed: readonly string[], p: FieldPath): FieldError {
  return value === '' ? required(p) : notSupported(p, value, allowed);
}

/** Quantity texts and their values; null for a text that does not parse (so one get answers both). */
const quantities = new Map<string, number | null>();
/** Distinct quantity texts remembered; past this the memo starts over (it only saves work). */
const QUANTITY_MEMO_LIMIT = 1024;

/** parseQuantity, remembered per text: requests and limits repeat the same few values. */
function quantityValue(q: unknown): number | undefined {
  // Short texts only: the memo must not hold on to a client's megabyte of digits.
  if (typeof q !== 'string' || q.length > 32) return parseQuantity(q);
  const known = quantities.get(q);
  if (known !== undefined) return known ?? undefined;
  const value = parseQuantity(q);
  if (quantities.size >= QUANTITY_MEMO_LIMIT) quantities.clear();
  quantities.set(q, value ?? null);
  return value;
}

function notFound(p: FieldPath, value: string): FieldError {
  return { type: 'FieldValueNotFound', field: p.toString(), message: `${p}: Not found: ${JSON.stringify(value)}` };
}

/** Checks the volumes of the pod spec at `sp` into `errs`; answers their names, which mounts must use. */
function addVolumeErrors(errs: FieldError[], volumes: readonly Json[], sp: FieldPath): ReadonlySet<string> {
  if (volumes.length === 0) return NO_VOLUMES;
  const names = new Set<string>();
  for (let i = 0; i < volumes.length; i++) {
    const v = volumes[i]!;
    const name = stringAt(v, 'name');
    if (name === '') errs.push(required(volumePath(sp, i).child('name')));
    else if (!matchesDNS1123Label(name)) for (const msg of isDNS1123Label(name)) errs.push(invalidValue(volumePath(sp, i).child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(volumePath(sp, i).child('name'), name));
    names.add(name);
    // Every own member but the name is a volume source; the second and later are refused, in order.
    let hasSource = false;
    for (const field in v) {
      if (!Object.hasOwn(v, field) || field === 'name') continue;
      if (hasSource) errs.push(forbiddenField(volumePath(sp, i).child(field), 'may not specify more than 1 volume type'));
      hasSource = true;
    }
  }
  return names;
}

const NO_VOLUMES: ReadonlySet<string> = new Set();

function volumePath(sp: FieldPath, i: number): FieldPath {
  return sp.child('volumes').index(i);
}

function addPortErrors(errs: FieldError[], c: Json, lp: FieldPath, ci: number): void {
  const ports = itemsAt(c, 'ports');
  // Duplicate names are looked up in a set, made only when there are two ports to compare.
  const names = ports.length > 1 ? new Set<string>() : undefined;
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i]!;
    const name = stringAt(port, 'name');
    if (name !== '') {
      if (!matchesPortName(name)) for (const msg of isValidPortName(name)) errs.push(invalidValue(portPath(lp, ci, i, 'name'), name, msg));
      if (names?.has(name) === true) errs.push(duplicate(portPath(lp, ci, i, 'name'), name));
      names?.add(name);
    }
    if (!isPortNumber(port.containerPort)) errs.push(...validatePortNumber(port.containerPort, portPath(lp, ci, i, 'containerPort')));
    if (port.hostPort !== undefined && port.hostPort !== 0 && !isPortNumber(port.hostPort)) errs.push(...validatePortNumber(port.hostPort, portPath(lp, ci, i, 'hostPort')));
    const protocol = stringAt(port, 'protocol');
    if (!isOneOf(protocol, PROTOCOLS)) errs.push(oneOfError(protocol, PROTOCOLS, portPath(lp, ci, i, 'protocol')));
  }
}

function portPath(lp: FieldPath, ci: number, i: number, field: string): FieldPath {
  return lp.index(ci).child('ports').index(i).child(field);
}

/** What validatePortNumber accepts, asked first so a valid port makes no path. */
function isPortNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function addResourceErrors(errs: FieldError[], c: Json, lp: FieldPath, ci: number): void {
  const resources = objectAt(c, 'resources');
  const requests = objectAt(resources, 'requests');
  if (requests === undefined) return;
  const limits = objectAt(resources, 'limits') ?? NO_LIMITS;
  // A for-in over own keys: Object.entries' order, without its arrays.
  for (const name in requests) {
    if (!Object.hasOwn(requests, name)) continue;
    const q = requests[name];
    const req = quantityValue(q);
    // Own keys only: a resource named `constructor` has no inherited limit.
    const lim = Object.hasOwn(limits, name) ? quantityValue(limits[name]) : undefined;
    if (req !== undefined && lim !== undefined && req > lim) {
      const rp = lp.index(ci).child('resources', 'requests').key(name);
      errs.push(invalidValue(rp, String(q), `must be less than or equal to ${name} limit of ${String(limits[name])}`));
    }
  }
}

const NO_LIMITS: Json = Object.freeze({});

/**
 * Checks container `ci` of the list at `lp` (initContainers or containers),
 * named `name`: its path is made only when there is an error to report.
 */
function addContainerErrors(errs: FieldError[], c: Json, name: string, lp: FieldPath, ci: number, volumeNames: ReadonlySet<string>, opts: PodSpecOptions): void {
  if (name === '') errs.push(required(lp.index(ci).child('name')));
  else if (!matchesDNS1123Label(name)) for (const msg of isDNS1123Label(name)) errs.push(invalidValue(lp.index(ci).child('name'), name, msg));
  const image = stringAt(c, 'image');
  if (image === '') errs.push(required(lp.index(ci).child('image')));
  if (opts.isPod && image !== image.trim()) errs.push(invalidValue(lp.index(ci).child('image'), image, 'must not have leading or trailing whitespace'));
  const pullPolicy = stringAt(c, 'imagePullPolicy');
  if (!isOneOf(pullPolicy, PULL_POLICIES)) errs.push(oneOfError(pullPolicy, PULL_POLICIES, lp.index(ci).child('imagePullPolicy')));
  const messagePolicy = stringAt(c, 'terminationMessagePolicy');
  if (!isOneOf(messagePolicy, MESSAGE_POLICIES)) errs.push(oneOfError(messagePolicy, MESSAGE_POLICIES, lp.index(ci).child('terminationMessagePolicy')));
  addPortErrors(errs, c, lp, ci);
  const env = itemsAt(c, 'env');
  for (let i = 0; i < env.length; i++) {
    const envName = stringAt(env[i], 'name');
    // RelaxedEnvironmentVariableValidation (GA): any printable ASCII but '='.
    if (envName === '') errs.push(required(lp.index(ci).child('env').index(i).child('name')));
    else if (!ENV_NAME.test(envName)) {
      const message = "a valid environment variable name must consist only of printable ASCII characters other than '='";
      errs.push(invalidValue(lp.index(ci).child('env').index(i).child('name'), envName, message));
    }
  }
  const mounts = itemsAt(c, 'volumeMounts');
  for (let i = 0; i < mounts.length; i++) {
    const m = mounts[i]!;
    const mountName = stringAt(m, 'name');
    if (mountName === '') errs.push(required(lp.index(ci).child('volumeMounts').index(i).child('name')));
    else if (!volumeNames.has(mountName)) errs.push(notFound(lp.index(ci).child('volumeMounts').index(i).child('name'), mountName));
    if (stringAt(m, 'mountPath') === '') errs.push(required(lp.index(ci).child('volumeMounts').index(i).child('mountPath')));
  }
  addResourceErrors(errs, c, lp, ci);
}

/**
 * The members an ephemeral container may not set (kube's allow-list over
 * EphemeralContainerCommon), in the Go struct's order, which is the order kube reports them.
 */
const EPHEMERAL_FORBIDDEN = [
  'ports',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'restartPolicyRules',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
] as const;
const EPHEMERAL_FORBIDDEN_MESSAGE = 'cannot be set for an Ephemeral Container';
const EPHEMERAL_OPTIONS: PodSpecOptions = Object.freeze({ isPod: true });

/**
 * Whether a member holds Go's zero value after decoding: absent or null for the
 * pointers and lists; resources (a struct) only when none of its members is set,
 * so `resources: {}` (what defaulting writes) passes and `limits: {}` does not.
 */
function isZeroMember(c: Json, field: string): boolean {
  const v = c[field];
  if (v === undefined || v === null) return true;
  if (field !== 'resources' || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const k in v) if (Object.hasOwn(v, k) && (v as Json)[k] !== undefined && (v as Json)[k] !== null) return false;
  return true;
}

/**
 * kube's validateEphemeralContainers: each is checked as a container is, its name
 * is unique among every container of the pod, its targetContainerName names a
 * regular or init container, and it sets none of the members it may not have.
 * `names` holds the regular and init container names; ephemeral names join it.
 */
function addEphemeralContainerErrors(errs: FieldError[], spec: Json, p: FieldPath, volumeNames: ReadonlySet<string>, names: Set<string>): void {
  const ephemeral = itemsAt(spec, 'ephemeralContainers');
  if (ephemeral.length === 0) return;
  const targets = new Set(names);
  const lp = p.child('ephemeralContainers');
  for (let i = 0; i < ephemeral.length; i++) {
    const c = ephemeral[i]!;
    const name = stringAt(c, 'name');
    // validateEphemeralContainers refuses surrounding whitespace itself, in a template too (where kube refuses them anyway).
    addContainerErrors(errs, c, name, lp, i, volumeNames, EPHEMERAL_OPTIONS);
    if (names.has(name)) errs.push(duplicate(lp.index(i).child('name'), name));
    names.add(name);
    const target = stringAt(c, 'targetContainerName');
    if (target !== '' && !targets.has(target)) errs.push(notFound(lp.index(i).child('targetContainerName'), target));
    for (const field of EPHEMERAL_FORBIDDEN) if (!isZeroMember(c, field)) errs.push(forbiddenField(lp.index(i).child(field), EPHEMERAL_FORBIDDEN_MESSAGE));
    const mounts = itemsAt(c, 'volumeMounts');
    for (let m = 0; m < mounts.length; m++) {
      for (const field of ['subPath', 'subPathExpr']) {
        if (stringAt(mounts[m], field) !== '') errs.push(forbiddenField(lp.index(i).child('volumeMounts').index(m).child(field), EPHEMERAL_FORBIDDEN_MESSAGE));
      }
    }
  }
}

/** ValidatePodTemplateSpec's rule: a template (PodTemplate, a controller's) has no ephemeral containers. */
export function addTemplateEphemeralErrors(errs: FieldError[], spec: Json, specPath: FieldPath): void {
  if (itemsAt(spec, 'ephemeralContainers').length > 0) errs.push(forbiddenField(specPath.child('ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
}

export function validateTolerations(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const tolerations = itemsAt(spec, 'tolerations');
  for (let i = 0; i < tolerations.length; i++) {
    const t = tolerations[i]!;
    const operator = stringAt(t, 'operator');
    if (!isOneOf(operator, TOLERATION_OPERATORS, false)) errs.push(oneOfError(operator, TOLERATION_OPERATORS, p.index(i).child('operator')));
    const effect = stringAt(t, 'effect');
    if (!isOneOf(effect, TAINT_EFFECTS, false)) errs.push(oneOfError(effect, TAINT_EFFECTS, p.index(i).child('effect')));
    if (t.operator === 'Exists' && stringAt(t, 'value') !== '') {
      errs.push(invalidValue(p.index(i).child('operator'), t.operator, 'value must be empty when `operator` is \'Exists\''));
    }
  }
  return errs;
}

export function validatePodSpec(spec: Json, p: FieldPath, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  addPodSpecErrors(errs, spec, p, opts);
  return errs;
}

/** validatePodSpec into a list the caller holds (a workload's template adds its own checks around it). */
export function addPodSpecErrors(errs: FieldError[], spec: Json, p: FieldPath, opts: PodSpecOptions): void {
  const volumeNames = addVolumeErrors(errs, itemsAt(spec, 'volumes'), p);
  if (itemsAt(spec, 'containers').length === 0) errs.push(required(p.child('containers')));
  const seen = new Set<string>();
  for (const list of CONTAINER_LISTS) {
    const containers = itemsAt(spec, list);
    if (containers.length === 0) continue;
    const lp = p.child(list);
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i]!;
      const name = stringAt(c, 'name');
      addContainerErrors(errs, c, name, lp, i, volumeNames, opts);
      if (name !== '' && seen.has(name)) errs.push(duplicate(lp.index(i).child('name'), name));
      seen.add(name);
    }
  }
  addEphemeralContainerErrors(errs, spec, p, volumeNames, seen);
  const restartPolicy = stringAt(spec, 'restartPolicy');
  if (!isOneOf(restartPolicy, RESTART_POLICIES)) errs.push(oneOfError(restartPolicy, RESTART_POLICIES, p.child('restartPolicy')));
  const dnsPolicy = stringAt(spec, 'dnsPolicy');
  if (!isOneOf(dnsPolicy, DNS_POLICIES)) errs.push(oneOfError(dnsPolicy, DNS_POLICIES, p.child('dnsPolicy')));
  if (spec.nodeSelector !== undefined) addLabelErrors(errs, spec.nodeSelector, p.child('nodeSelector'));
  if (spec.tolerations !== undefined) errs.push(...validateTolerations(spec, p.child('tolerations')));
  const sa = stringAt(spec, 'serviceAccountName');
  if (sa !== '' && !matchesDNS1123Subdomain(sa)) for (const msg of isDNS1123Subdomain(sa)) errs.push(invalidValue(p.child('serviceAccountName'), sa, msg));
  for (const f of NAMED_LABEL_FIELDS) {
    const v = stringAt(spec, f);
    if (v !== '' && !matchesDNS1123Label(v)) for (const msg of isDNS1123Label(v)) errs.push(invalidValue(p.child(f), v, msg));
  }
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && !(typeof deadline === 'number' && deadline >= 1 && deadline <= MAX_INT32)) {
    errs.push(invalidValue(p.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  }
}
