// What the resource.k8s.io kinds share: device selectors (CEL expressions over
// `device`, compiled on write as kube's validation compiles them), opaque
// driver configuration, and the device claim of ResourceClaims and their
// templates (requests, constraints, config) with kube's v1 defaults
// (allocationMode ExactCount, count 1, toleration operator Equal). The basics of
// pkg/apis/resource/validation; DRA allocation itself is not implemented.
import { createCelEnvironment, type CelEnvironment } from '../../../cel/index.js';
import { validateCelExpression } from '../../admissionregistration/v1/admission-cel.js';
import { duplicate, forbiddenField, invalidValue, notSupported, required, tooMany, type FieldError, type FieldPath } from '../../../schema/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { arrayAt, objectAt, setDefault, stringAt, type Json } from '../../core/v1/helpers.js';

const MAX_SELECTORS = 32;
const MAX_REQUESTS = 32;
const MAX_CONFIGS = 32;
const ALLOCATION_MODES = ['All', 'ExactCount'];

let environment: CelEnvironment | undefined;

/** `device` is typed dyn: its attributes and capacity are whatever the drivers publish. */
function deviceEnvironment(): CelEnvironment {
  environment ??= createCelEnvironment({ variables: [{ name: 'device', type: 'dyn' }] });
  return environment;
}

function validateSelectorExpression(expression: unknown, p: FieldPath): FieldError[] {
  return validateCelExpression(deviceEnvironment(), expression, p, 'bool');
}

export function validateSelectors(selectors: Json[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (selectors.length > MAX_SELECTORS) errs.push(tooMany(p, selectors.length, MAX_SELECTORS));
  selectors.forEach((s, i) => {
    const cel = objectAt(s, 'cel');
    if (cel === undefined) errs.push(required(p.index(i).child('cel')));
    else errs.push(...validateSelectorExpression(cel.expression, p.index(i).child('cel', 'expression')));
  });
  return errs;
}

export function validateDriverName(driver: string, p: FieldPath): FieldError[] {
  if (driver === '') return [required(p)];
  return isDNS1123Subdomain(driver).map((msg) => invalidValue(p, driver, msg));
}

/** config[].opaque: a driver and its parameters; requests must name requests of the claim. */
export function validateConfigs(configs: Json[], p: FieldPath, requests?: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (configs.length > MAX_CONFIGS) errs.push(tooMany(p, configs.length, MAX_CONFIGS));
  configs.forEach((c, i) => {
    const at = p.index(i);
    const opaque = objectAt(c, 'opaque');
    if (opaque === undefined) errs.push(required(at.child('opaque')));
    else {
      errs.push(...validateDriverName(stringAt(opaque, 'driver'), at.child('opaque', 'driver')));
      if (opaque.parameters === undefined || opaque.parameters === null) errs.push(required(at.child('opaque', 'parameters')));
    }
    if (requests !== undefined) errs.push(...validateRequestRefs(c.requests, at.child('requests'), requests));
  });
  return errs;
}

/** A reference is `<request>` or `<request>/<subrequest>`; the request part must exist. */
function validateRequestRefs(refs: unknown, p: FieldPath, requests: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(refs) ? refs : []).forEach((r, i) => {
    const name = String(r).split('/')[0] ?? '';
    if (!requests.has(name)) errs.push(invalidValue(p.index(i), r, 'must be the name of a request in the claim or the name of a request and a subrequest separated by \'/\''));
  });
  return errs;
}

function defaultExact(req: Json): void {
  setDefault(req, 'allocationMode', 'ExactCount');
  if (req.allocationMode === 'ExactCount') setDefault(req, 'count', 1);
  for (const t of arrayAt(req, 'tolerations')) setDefault(t, 'operator', 'Equal');
}

/** SetDefaults for a DeviceClaim (ResourceClaimSpec.devices). */
export function defaultDeviceClaim(devices: Json | undefined): void {
  for (const request of arrayAt(devices, 'requests')) {
    const exactly = objectAt(request, 'exactly');
    if (exactly !== undefined) defaultExact(exactly);
    for (const sub of arrayAt(request, 'firstAvailable')) defaultExact(sub);
  }
}

function validateExact(req: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const className = stringAt(req, 'deviceClassName');
  if (className === '') errs.push(required(p.child('deviceClassName')));
  else for (const msg of isDNS1123Subdomain(className)) errs.push(invalidValue(p.child('deviceClassName'), className, msg));
  errs.push(...validateSelectors(arrayAt(req, 'selectors'), p.child('selectors')));
  const mode = stringAt(req, 'allocationMode');
  if (mode !== '' && !ALLOCATION_MODES.includes(mode)) errs.push(notSupported(p.child('allocationMode'), mode, ALLOCATION_MODES));
  const count = req.count;
  if (mode === 'ExactCount' && typeof count === 'number' && count <= 0) errs.push(invalidValue(p.child('count'), count, 'must be greater than zero'));
  if (mode === 'All' && typeof count === 'number' && count !== 0) errs.push(invalidValue(p.child('count'), count, 'must not be specified when allocationMode is \'All\''));
  return errs;
}

function validateName(name: string, p: FieldPath, seen: Set<string>): FieldError[] {
  if (name === '') return [required(p)];
  const errs = isDNS1123Label(name).map((msg) => invalidValue(p, name, msg));
  if (seen.has(name)) errs.push(duplicate(p, name));
  seen.add(name);
  return errs;
}

function validateRequest(request: Json, p: FieldPath, names: Set<string>): FieldError[] {
  const errs = validateName(stringAt(request, 'name'), p.child('name'), names);
  const exactly = objectAt(request, 'exactly');
  const firstAvailable = arrayAt(request, 'firstAvailable');
  if (exactly !== undefined && firstAvailable.length > 0) errs.push(forbiddenField(p.child('firstAvailable'), 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (exactly === undefined && firstAvailable.length === 0) errs.push(required(p, 'exactly one of `exactly` or `firstAvailable` is required'));
  if (exactly !== undefined) errs.push(...validateExact(exactly, p.child('exactly')));
  const subNames = new Set<string>();
  firstAvailable.forEach((sub, i) => {
    const at = p.child('firstAvailable').index(i);
    errs.push(...validateName(stringAt(sub, 'name'), at.child('name'), subNames));
    errs.push(...validateExact(sub, at));
  });
  return errs;
}

/** ValidateDeviceClaim: named, unique requests; constraints and config naming them. */
export function validateDeviceClaim(devices: Json | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const requests = arrayAt(devices, 'requests');
  if (requests.length > MAX_REQUESTS) errs.push(tooMany(p.child('requests'), requests.length, MAX_REQUESTS));
  const names = new Set<string>();
  requests.forEach((r, i) => errs.push(...validateRequest(r, p.child('requests').index(i), names)));
  arrayAt(devices, 'constraints').forEach((c, i) => {
    const at = p.child('constraints').index(i);
    errs.push(...validateRequestRefs(c.requests, at.child('requests'), names));
    const match = stringAt(c, 'matchAttribute');
    const distinct = stringAt(c, 'distinctAttribute');
    if (match === '' && distinct === '') errs.push(required(at, 'exactly one of `matchAttribute` or `distinctAttribute` is required'));
    if (match !== '' && distinct !== '') errs.push(invalidValue(at, { matchAttribute: match, distinctAttribute: distinct }, 'exactly one of `matchAttribute` or `distinctAttribute` is required, but multiple fields are set'));
  });
  errs.push(...validateConfigs(arrayAt(devices, 'config'), p.child('config'), names));
  return errs;
}
