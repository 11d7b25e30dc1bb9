// Validation of the pod spec shared by Pods, PodTemplates and RC templates
// (a practical subset of kube's ValidatePodSpec: the rules users hit with
// kubectl). Paths and messages are kube's; `requireImage` is false for
// templates, where kube lets controllers fill the image later.
import { type FieldError, type FieldPath, duplicate, forbiddenField, invalidValue, notSupported, required } from '../../../errors/field-errors.js';
import { inclusiveRangeError, isValidPortName, validatePortNumber } from '../../../registry/validation/common.js';
import { validateLabels } from '../../../registry/validation/label-selector.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { PROTOCOLS } from './endpoints.js';
import { type Json, arrayAt, objectAt, stringAt } from './helpers.js';
import { parseQuantity } from './quantity.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'] as const;
const DNS_POLICIES = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'] as const;
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
const MESSAGE_POLICIES = ['FallbackToLogsOnError', 'File'] as const;
const TOLERATION_OPERATORS = ['Equal', 'Exists'] as const;
const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'PreferNoSchedule'] as const;
const MAX_INT32 = 2147483647;

export interface PodSpecOptions {
  readonly requireImage: boolean;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], p: FieldPath, requiredIfEmpty = true): FieldError[] {
  if (value === '') return requiredIfEmpty ? [required(p)] : [];
  return (allowed as readonly string[]).includes(value) ? [] : [notSupported(p, value, allowed)];
}

function notFound(p: FieldPath, value: string): FieldError {
  return { type: 'FieldValueNotFound', field: p.toString(), message: `${p}: Not found: ${JSON.stringify(value)}` };
}

function validateVolumes(volumes: Json[], p: FieldPath): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const vp = p.index(i);
    const name = stringAt(v, 'name');
    if (name === '') errs.push(required(vp.child('name')));
    else for (const msg of isDNS1123Label(name)) errs.push(invalidValue(vp.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(vp.child('name'), name));
    names.add(name);
    const sources = Object.keys(v).filter((k) => k !== 'name');
    for (const extra of sources.slice(1)) errs.push(forbiddenField(vp.child(extra), 'may not specify more than 1 volume type'));
  });
  return { errs, names };
}

function validatePorts(c: Json, cp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arrayAt(c, 'ports').forEach((port, i) => {
    const pp = cp.child('ports').index(i);
    const name = stringAt(port, 'name');
    if (name !== '') {
      for (const msg of isValidPortName(name)) errs.push(invalidValue(pp.child('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(pp.child('name'), name));
      names.add(name);
    }
    errs.push(...validatePortNumber(port.containerPort, pp.child('containerPort')));
    if (port.hostPort !== undefined && port.hostPort !== 0) errs.push(...validatePortNumber(port.hostPort, pp.child('hostPort')));
    errs.push(...oneOf(stringAt(port, 'protocol'), PROTOCOLS, pp.child('protocol')));
  });
  return errs;
}

function validateResources(c: Json, cp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const resources = objectAt(c, 'resources');
  const limits = objectAt(resources, 'limits') ?? {};
  for (const [name, q] of Object.entries(objectAt(resources, 'requests') ?? {})) {
    const req = parseQuantity(q);
    // Own keys only: a resource named `constructor` has no inherited limit.
    const lim = Object.hasOwn(limits, name) ? parseQuantity(limits[name]) : undefined;
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
  errs.push(...oneOf(stringAt(c, 'imagePullPolicy'), PULL_POLICIES, cp.child('imagePullPolicy')));
  errs.push(...oneOf(stringAt(c, 'terminationMessagePolicy'), MESSAGE_POLICIES, cp.child('terminationMessagePolicy')));
  errs.push(...validatePorts(c, cp));
  arrayAt(c, 'env').forEach((env, i) => {
    const ep = cp.child('env').index(i).child('name');
    const envName = stringAt(env, 'name');
    // RelaxedEnvironmentVariableValidation (GA): any printable ASCII but '='.
    if (envName === '') errs.push(required(ep));
    else if (!/^[\x20-\x3c\x3e-\x7e]+$/.test(envName)) {
      errs.push(invalidValue(ep, envName, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
    }
  });
  arrayAt(c, 'volumeMounts').forEach((m, i) => {
    const mp = cp.child('volumeMounts').index(i);
    const mountName = stringAt(m, 'name');
    if (mountName === '') errs.push(required(mp.child('name')));
    else if (!volumeNames.has(mountName)) errs.push(notFound(mp.child('name'), mountName));
    if (stringAt(m, 'mountPath') === '') errs.push(required(mp.child('mountPath')));
  });
  return [...errs, ...validateResources(c, cp)];
}

export function validateTolerations(spec: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  arrayAt(spec, 'tolerations').forEach((t, i) => {
    const tp = p.index(i);
    errs.push(...oneOf(stringAt(t, 'operator'), TOLERATION_OPERATORS, tp.child('operator'), false));
    errs.push(...oneOf(stringAt(t, 'effect'), TAINT_EFFECTS, tp.child('effect'), false));
    if (t.operator === 'Exists' && stringAt(t, 'value') !== '') {
      errs.push(invalidValue(tp.child('operator'), t.operator, 'value must be empty when `operator` is \'Exists\''));
    }
  });
  return errs;
}

export function validatePodSpec(spec: Json, p: FieldPath, opts: PodSpecOptions): FieldError[] {
  const { errs, names: volumeNames } = validateVolumes(arrayAt(spec, 'volumes'), p.child('volumes'));
  const containers = arrayAt(spec, 'containers');
  if (containers.length === 0) errs.push(required(p.child('containers')));
  const seen = new Set<string>();
  for (const list of ['initContainers', 'containers'] as const) {
    arrayAt(spec, list).forEach((c, i) => {
      const cp = p.child(list).index(i);
      errs.push(...validateContainer(c, cp, volumeNames, opts));
      const name = stringAt(c, 'name');
      if (name !== '' && seen.has(name)) errs.push(duplicate(cp.child('name'), name));
      seen.add(name);
    });
  }
  errs.push(...oneOf(stringAt(spec, 'restartPolicy'), RESTART_POLICIES, p.child('restartPolicy')));
  errs.push(...oneOf(stringAt(spec, 'dnsPolicy'), DNS_POLICIES, p.child('dnsPolicy')));
  errs.push(...validateLabels(spec.nodeSelector, p.child('nodeSelector')));
  errs.push(...validateTolerations(spec, p.child('tolerations')));
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
