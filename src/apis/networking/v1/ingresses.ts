// Ingresses: HTTP routing rules (hosts, paths with a pathType, backends) with a
// default backend, TLS hosts and secrets, and a load-balancer status a controller
// writes through /status. Rules are kube's ValidateIngressSpec; v1 defaults nothing.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { isValidPortName, validatePortNumber } from '../../../registry/validation/common.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../registry/validation/names.js';
import { arrayAt, bumpGenerationIfChanged, ensureObject, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';
import { ingressTable } from './networking-table.js';
import { isDNS1035Label, legacyIpErrors, isWildcardDNS1123Subdomain, parseIp } from './net.js';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'] as const;
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export interface IngressValidationOptions {
  /** Updates keep a TLS secretName kube once accepted. */
  readonly allowInvalidSecretName: boolean;
  /** Updates keep rules under a wildcard host that kube once accepted unchecked. */
  readonly allowInvalidWildcardHostRule: boolean;
}

const STRICT: IngressValidationOptions = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false };

/** A TypedLocalObjectReference backend (resource): kind and name required, path-safe. */
export function validateTypedReference(ref: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiGroup = ownField(ref, 'apiGroup');
  if (typeof apiGroup === 'string') for (const msg of isDNS1123Subdomain(apiGroup)) errs.push(invalidValue(p.child('apiGroup'), apiGroup, msg));
  for (const field of ['kind', 'name']) {
    const v = stringAt(ref, field);
    if (v === '') errs.push(required(p.child(field)));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalidValue(p.child(field), v, msg));
  }
  return errs;
}

function validateBackend(backend: Json, p: FieldPath): FieldError[] {
  const resource = objectAt(backend, 'resource');
  const service = objectAt(backend, 'service');
  if (resource !== undefined && service !== undefined) return [invalidValue(p, '', 'cannot set both resource and service backends')];
  if (resource !== undefined) return validateTypedReference(resource, p.child('resource'));
  if (service === undefined) return [invalidValue(p, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = stringAt(service, 'name');
  if (name === '') errs.push(required(p.child('service', 'name')));
  else for (const msg of isDNS1035Label(name)) errs.push(invalidValue(p.child('service', 'name'), name, msg));
  const port = objectAt(service, 'port') ?? {};
  const portName = stringAt(port, 'name');
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) errs.push(invalidValue(p, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const msg of isValidPortName(portName)) errs.push(invalidValue(p.child('service', 'port', 'name'), portName, msg));
  else if (portNumber !== 0) errs.push(...validatePortNumber(portNumber, p.child('service', 'port', 'number')));
  else errs.push(required(p, 'port name or number is required'));
  return errs;
}

function validateHTTPPath(httpPath: Json, p: FieldPath): FieldError[] {
  const pathType = ownField(httpPath, 'pathType');
  if (pathType === undefined || pathType === null) return [required(p.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = stringAt(httpPath, 'path');
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalidValue(p.child('path'), value, 'must be an absolute path'));
      if (value !== '') {
        for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(invalidValue(p.child('path'), value, `must not contain '${seq}'`));
        for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(invalidValue(p.child('path'), value, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value !== '' && !value.startsWith('/')) errs.push(invalidValue(p.child('path'), value, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(p.child('pathType'), pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(objectAt(httpPath, 'backend') ?? {}, p.child('backend')));
  return errs;
}

function validateRuleValue(rule: Json, p: FieldPath): FieldError[] {
  const http = objectAt(rule, 'http');
  if (http === undefined) return [];
  const hp = p.child('http');
  const paths = arrayAt(http, 'paths');
  const errs: FieldError[] = paths.length === 0 ? [required(hp.child('paths'))] : [];
  paths.forEach((x, i) => errs.push(...validateHTTPPath(x, hp.child('paths').index(i))));
  return errs;
}

function validateRules(rules: Json[], p: FieldPath, opts: IngressValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const rp = p.index(i);
    const host = stringAt(rule, 'host');
    let wildcard = false;
    if (host !== '') {
      if (parseIp(host) !== undefined) errs.push(invalidValue(rp.child('host'), host, 'must be a DNS name, not an IP address'));
      wildcard = host.includes('*');
      const msgs = wildcard ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const msg of msgs) errs.push(invalidValue(rp.child('host'), host, msg));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, rp));
  });
  return errs;
}

function validateTLS(tls: Json[], p: FieldPath, opts: IngressValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  tls.forEach((t, i) => {
    const hosts = ownField(t, 'hosts');
    (Array.isArray(hosts) ? hosts : []).forEach((h, j) => {
      const host = typeof h === 'string' ? h : '';
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const msg of msgs) errs.push(invalidValue(p.index(i).child('hosts').index(j), host, msg));
    });
    const secretName = stringAt(t, 'secretName');
    if (secretName !== '' && !opts.allowInvalidSecretName) {
      for (const msg of isDNS1123Subdomain(secretName)) errs.push(invalidValue(p.index(i).child('secretName'), secretName, msg));
    }
  });
  return errs;
}

export function validateIngressSpec(ingress: KubeObject, opts: IngressValidationOptions = STRICT): FieldError[] {
  const spec = objectAt(ingress, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const rules = arrayAt(spec, 'rules');
  const defaultBackend = objectAt(spec, 'defaultBackend');
  if (rules.length === 0 && defaultBackend === undefined) errs.push(invalidValue(sp, ownField(spec, 'rules') ?? null, 'either `defaultBackend` or `rules` must be specified'));
  if (defaultBackend !== undefined) errs.push(...validateBackend(defaultBackend, sp.child('defaultBackend')));
  errs.push(...validateRules(rules, sp.child('rules'), opts));
  errs.push(...validateTLS(arrayAt(spec, 'tls'), sp.child('tls'), opts));
  const className = ownField(spec, 'ingressClassName');
  if (typeof className === 'string') for (const msg of isDNS1123Subdomain(className)) errs.push(invalidValue(sp.child('ingressClassName'), className, msg));
  return errs;
}

function validateIngressCreate(ingress: KubeObject): FieldError[] {
  const errs = validateIngressSpec(ingress);
  const annotation = ingress.metadata.annotations?.[INGRESS_CLASS_ANNOTATION];
  const className = ownField(objectAt(ingress, 'spec'), 'ingressClassName');
  if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
    errs.push(invalidValue(path('annotations').child(INGRESS_CLASS_ANNOTATION), annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/** What the stored object had that kube lets an update keep. */
function updateOptions(prev: KubeObject): IngressValidationOptions {
  const spec = objectAt(prev, 'spec');
  const allowInvalidSecretName = arrayAt(spec, 'tls').some((t) => {
    const s = stringAt(t, 'secretName');
    return s !== '' && isDNS1123Subdomain(s).length > 0;
  });
  const allowInvalidWildcardHostRule = arrayAt(spec, 'rules').some((r) => stringAt(r, 'host').includes('*') && validateRuleValue(r, path()).length > 0);
  return { allowInvalidSecretName, allowInvalidWildcardHostRule };
}

/** The load-balancer status a controller reports: IPs (old ones kept as they were) and DNS names. */
function validateIngressStatus(next: KubeObject, prev: KubeObject): FieldError[] {
  const lb = path('status', 'loadBalancer');
  const existing = new Set(arrayAt(objectAt(objectAt(prev, 'status'), 'loadBalancer'), 'ingress').map((i) => stringAt(i, 'ip')));
  const errs: FieldError[] = [];
  arrayAt(objectAt(objectAt(next, 'status'), 'loadBalancer'), 'ingress').forEach((ing, i) => {
    const ip = stringAt(ing, 'ip');
    const ipPath = lb.child('ingress').index(i).child('ip');
    if (ip !== '' && !existing.has(ip)) for (const msg of legacyIpErrors(ip)) errs.push(invalidValue(ipPath, ip, msg));
    const hostname = stringAt(ing, 'hostname');
    const hostPath = lb.child('ingress').index(i).child('hostname');
    if (hostname !== '') {
      for (const msg of isDNS1123Subdomain(hostname)) errs.push(invalidValue(hostPath, hostname, msg));
      if (parseIp(hostname) !== undefined) errs.push(invalidValue(hostPath, hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

/** kube warns on create only. */
function ingressWarnings(ingress: KubeObject, prev: KubeObject | undefined): string[] {
  if (prev !== undefined || ingress.metadata.annotations?.[INGRESS_CLASS_ANNOTATION] === undefined) return [];
  return [`annotation "${INGRESS_CLASS_ANNOTATION}" is deprecated, please use 'spec.ingressClassName' instead`];
}

export const ingresses = defineResource({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  plural: 'ingresses',
  scope: 'Namespaced',
  shortNames: ['ing'],
  table: ingressTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    prepareForCreate: (ing) => {
      ing.metadata.generation = 1;
      ing.status = { loadBalancer: {} };
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateIngressCreate,
    validateUpdate: (next, prev) => validateIngressSpec(next, updateOptions(prev)),
    warnings: ingressWarnings,
    // Go writes the status and its loadBalancer struct even when empty; so does a status write that drops them.
    canonicalize: (ing) => {
      ensureObject(ensureObject(ing, 'status'), 'loadBalancer');
    },
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status', validateUpdate: validateIngressStatus },
  },
});
