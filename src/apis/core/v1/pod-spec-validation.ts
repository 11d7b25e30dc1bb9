// Validation of the pod spec shared by Pods, PodTemplates and RC templates
// (a practical subset of kube's ValidatePodSpec: the rules users hit with
// kubectl). Paths and messages are kube's; `requireImage` is false for
// templates, where kube lets controllers fill the image later.
// Every write of a pod or a workload runs this, so paths below the container are
// made only where an error is reported (most objects are valid), and quantities
// are parsed once per distinct text.
import { type FieldError, type FieldPath, duplicate, forbiddenField, invalidValue, notSupported, required } from '../../../errors/field-errors.js';
import { inclusiveRangeError, isValidPortName, validatePortNumber } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
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

export interface PodSpecOptions {
  readonly requireImage: boolean;
}

/** `at` makes the field's path, called only when the value is refused. */
function oneOf<T extends string>(value: string, allowed: readonly T[], at: () => FieldPath, requiredIfEmpty = true): FieldError[] {
  if (value === '') return requiredIfEmpty ? [required(at())] : [];
  return (allowed as readonly string[]).includes(value) ? [] : [notSupported(at(), value, allowed)];
}

const quantities = new Map<string, number | undefined>();
/** Distinct quantity texts remembered; past this the memo starts over (it only saves work). */
const QUANTITY_MEMO_LIMIT = 1024;

/** parseQuantity, remembered per text: requests and limits repeat the same few values. */
function quantityValue(q: unknown): number | undefined {
  // Short texts only: the memo must not hold on to a client's megabyte of digits.
  if (typeof q !== 'string' || q.length > 32) return parseQuantity(q);
  if (quantities.has(q)) return quantities.get(q);
  const value = parseQuantity(q);
  if (quantities.size >= QUANTITY_MEMO_LIMIT) quantities.clear();
  quantities.set(q, value);
  return value;
}

function notFound(p: FieldPath, value: string): FieldError {
  return { type: 'FieldValueNotFound', field: p.toString(), message: `${p}: Not found: ${JSON.stringify(value)}` };
}

function validateVolumes(volumes: readonly Json[], p: FieldPath): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const at = (field: string): FieldPath => p.index(i).child(field);
    const name = stringAt(v, 'name');
    if (name === '') errs.push(required(at('name')));
    else for (const msg of isDNS1123Label(name)) errs.push(invalidValue(at('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(at('name'), name));
    names.add(name);
    const sources = Object.keys(v).filter((k) => k !== 'name');
    for (const extra of sources.slice(1)) errs.push(forbiddenField(at(extra), 'may not specify more than 1 volume type'));
  });
  return { errs, names };
}

function validatePorts(c: Json, cp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  itemsAt(c, 'ports').forEach((port, i) => {
    const at = (field: string): FieldPath => cp.child('ports').index(i).child(field);
    const name = stringAt(port, 'name');
    if (name !== '') {
      for (const msg of isValidPortName(name)) errs.push(invalidValue(at('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(at('name'), name));
      names.add(name);
    }
    if (!isPortNumber(port.containerPort)) errs.push(...validatePortNumber(port.containerPort, at('containerPort')));
    if (port.hostPort !== undefined && port.hostPort !== 0 && !isPortNumber(port.hostPort)) errs.push(...validatePortNumber(port.hostPort, at('hostPort')));
    errs.push(...oneOf(stringAt(port, 'protocol'), PROTOCOLS, () => at('protocol')));
  });
  return errs;
}

/** What validatePortNumber accepts, asked first so a valid port makes no path. */
function isPortNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}

function validateResources(c: Json, cp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const resources = objectAt(c, 'resources');
  const limits = objectAt(resources, 'limits') ?? {};
  for (const [name, q] of Object.entries(objectAt(resources, 'requests') ?? {})) {
    const req = quantityValue(q);
    // Own keys only: a resource named `constructor` has no inherited limit.
    const lim = Object.hasOwn(limits, name) ? quantityValue(limits[name]) : undefined;
    if (req !== undefined && lim !== undefined && req > lim) {
      const rp = cp.child('resources', 'requests').key(name);
      errs.push(invalidValue(rp, String(q), `must be less than or equal to ${name} limit of ${String(limits[name])}`));
    }
  }
  return errs;
}

function validateContainer(c: Json, cp: FieldPath, volumeNames: Set<string>, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  const name = stringAt(c, 'name');
  if (name === '') errs.push(required(cp.child('name')));
  else for (const msg of isDNS1123Label(name)) errs.push(invalidValue(cp.child('name'), name, msg));
  const image = stringAt(c, 'image');
  if (opts.requireImage && image === '') errs.push(required(cp.child('image')));
  if (image !== image.trim()) errs.push(invalidValue(cp.child('image'), image, 'must not have leading or trailing whitespace'));
  errs.push(...oneOf(stringAt(c, 'imagePullPolicy'), PULL_POLICIES, () => cp.child('imagePullPolicy')));
  errs.push(...oneOf(stringAt(c, 'terminationMessagePolicy'), MESSAGE_POLICIES, () => cp.child('terminationMessagePolicy')));
  errs.push(...validatePorts(c, cp));
  itemsAt(c, 'env').forEach((env, i) => {
    const at = (): FieldPath => cp.child('env').index(i).child('name');
    const envName = stringAt(env, 'name');
    // RelaxedEnvironmentVariableValidation (GA): any printable ASCII but '='.
    if (envName === '') errs.push(required(at()));
    else if (!ENV_NAME.test(envName)) {
      errs.push(invalidValue(at(), envName, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
    }
  });
  itemsAt(c, 'volumeMounts').forEach((m, i) => {
    const at = (field: string): FieldPath => cp.child('volumeMounts').index(i).child(field);
    const mountName = stringAt(m, 'name');
    if (mountName === '') errs.push(required(at('name')));
    else if (!volumeNames.has(mountName)) errs.push(notFound(at('name'), mountName));
    if (stringAt(m, 'mountPath') === '') errs.push(required(at('mountPath')));
  });
  return [...errs, ...validateResources(c, cp)];
}

export function validateTolerations(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  itemsAt(spec, 'tolerations').forEach((t, i) => {
    const at = (field: string): FieldPath => p.index(i).child(field);
    errs.push(...oneOf(stringAt(t, 'operator'), TOLERATION_OPERATORS, () => at('operator'), false));
    errs.push(...oneOf(stringAt(t, 'effect'), TAINT_EFFECTS, () => at('effect'), false));
    if (t.operator === 'Exists' && stringAt(t, 'value') !== '') {
      errs.push(invalidValue(at('operator'), t.operator, 'value must be empty when `operator` is \'Exists\''));
    }
  });
  return errs;
}

export function validatePodSpec(spec: Json, p: FieldPath, opts: PodSpecOptions): FieldError[] {
  const { errs, names: volumeNames } = validateVolumes(itemsAt(spec, 'volumes'), p.child('volumes'));
  const containers = itemsAt(spec, 'containers');
  if (containers.length === 0) errs.push(required(p.child('containers')));
  const seen = new Set<string>();
  for (const list of ['initContainers', 'containers'] as const) {
    itemsAt(spec, list).forEach((c, i) => {
      const cp = p.child(list).index(i);
      errs.push(...validateContainer(c, cp, volumeNames, opts));
      const name = stringAt(c, 'name');
      if (name !== '' && seen.has(name)) errs.push(duplicate(cp.child('name'), name));
      seen.add(name);
    });
  }
  errs.push(...oneOf(stringAt(spec, 'restartPolicy'), RESTART_POLICIES, () => p.child('restartPolicy')));
  errs.push(...oneOf(stringAt(spec, 'dnsPolicy'), DNS_POLICIES, () => p.child('dnsPolicy')));
  if (spec.nodeSelector !== undefined) errs.push(...validateLabels(spec.nodeSelector, p.child('nodeSelector')));
  if (spec.tolerations !== undefined) errs.push(...validateTolerations(spec, p.child('tolerations')));
  const sa = stringAt(spec, 'serviceAccountName');
  if (sa !== '') for (const msg of isDNS1123Subdomain(sa)) errs.push(invalidValue(p.child('serviceAccountName'), sa, msg));
  for (const f of ['hostname', 'subdomain'] as const) {
    const v = stringAt(spec, f);
    if (v !== '') for (const msg of isDNS1123Label(v)) errs.push(invalidValue(p.child(f), v, msg));
  }
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && !(typeof deadline === 'number' && deadline >= 1 && deadline <= MAX_INT32)) {
    errs.push(invalidValue(p.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  }
  return errs;
}
