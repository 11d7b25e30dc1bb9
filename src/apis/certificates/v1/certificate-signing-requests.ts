// CertificateSigningRequests: a PKCS#10 request addressed to a signer. The server
// records who asked (spec.username/uid/groups/extra from the requesting user) and
// keeps spec as created: a main-resource update changes metadata only (kube drops
// the rest, it does not refuse it). Approval conditions change only through
// /approval, the issued certificate only through /status.
import { X509Certificate } from 'node:crypto';
import { defineResource, type WriteContext } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import {
  type FieldError,
  type FieldPath,
  duplicate,
  forbiddenField,
  invalidValue,
  notSupported,
  path,
  required,
  tooLong,
} from '../../../schema/field-errors.js';
import { deepEqual } from '../../../registry/validation/common.js';
import { DNS1123_LABEL_MAX_LENGTH, isDNS1123Label, isDNS1123Subdomain } from '../../../registry/validation/names.js';
import { type Json, arrayAt, objectAt, stringAt } from '../../core/v1/helpers.js';
import { checkCertificateRequest, pemBlocks } from './csr-parse.js';
import { certificateSigningRequestTable } from './certificate-signing-requests-table.js';

/** kube's KeyUsage values, sorted as its error lists them. */
export const KEY_USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];

const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';
const APPROVAL_TYPES = ['Approved', 'Denied'] as const;
const FINAL_TYPES = ['Approved', 'Denied', 'Failed'] as const;
const SUBDOMAIN_MAX = 253;

/** Bytes of a []byte field (base64 in JSON); undecodable text is empty. */
function bytesAt(parent: unknown, field: string): Buffer {
  const v = stringAt(parent, field);
  return /^[A-Za-z0-9+/]*={0,2}$/.test(v) ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

/** apimachinery's ValidateSignerName: `<domain with a dot>/<path as a subdomain>`. */
export function validateSignerName(p: FieldPath, signerName: string): FieldError[] {
  if (signerName === '') return [required(p)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalidValue(p, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > SUBDOMAIN_MAX) errs.push(tooLong(p, SUBDOMAIN_MAX));
  const labels = domain.split('.');
  for (const label of labels) {
    const problems = isDNS1123Label(label);
    if (problems.length === 0) continue;
    for (const msg of problems) errs.push(invalidValue(p, domain, `validating label ${JSON.stringify(label)}: ${msg}`));
    break;
  }
  if (labels.length < 2) errs.push(invalidValue(p, domain, 'should be a domain with at least two segments separated by dots'));
  const maxPath = SUBDOMAIN_MAX + DNS1123_LABEL_MAX_LENGTH + 1;
  if (rest.length > maxPath) errs.push(tooLong(p, maxPath));
  for (const msg of isDNS1123Subdomain(rest)) errs.push(invalidValue(p, rest, `validating path ${JSON.stringify(rest)}: ${msg}`));
  return errs;
}

/** '' when status.certificate holds one or more CERTIFICATE PEM blocks (or nothing). */
function certificateProblem(pem: Buffer): string {
  if (pem.length === 0) return '';
  const blocks = pemBlocks(pem.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(b.type)}`;
    if (b.headers) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(b.der);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return '';
}

function validateConditions(csr: KubeObject, allowBoth: boolean): FieldError[] {
  const p = path('status', 'conditions');
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  arrayAt(objectAt(csr, 'status'), 'conditions').forEach((c, i) => {
    const type = stringAt(c, 'type');
    const status = stringAt(c, 'status');
    if (type === '') errs.push(required(p.index(i).child('type')));
    const allowed = (FINAL_TYPES as readonly string[]).includes(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status === '') errs.push(required(p.index(i).child('status')));
    else if (!allowed.includes(status)) errs.push(notSupported(p.index(i).child('status'), status, allowed));
    if (!allowBoth) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(invalidValue(p.index(i).child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(invalidValue(p.index(i).child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (seen.has(type)) errs.push(duplicate(p.index(i).child('type'), type));
    seen.add(type);
  });
  return errs;
}

function hasBothApprovedAndDenied(csr: KubeObject | undefined): boolean {
  const types = new Set(arrayAt(objectAt(csr, 'status'), 'conditions').map((c) => c.type));
  return types.has('Approved') && types.has('Denied');
}

function validateCsr(csr: KubeObject, prev: KubeObject | undefined): FieldError[] {
  const spec = objectAt(csr, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const problem = checkCertificateRequest(bytesAt(spec, 'request'));
  if (problem !== '') errs.push(invalidValue(sp.child('request'), stringAt(spec, 'request'), problem));
  const usages = Array.isArray(spec.usages) ? (spec.usages as unknown[]) : [];
  if (usages.length === 0) errs.push(required(sp.child('usages')));
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (typeof u !== 'string' || !KEY_USAGES.includes(u)) errs.push(notSupported(sp.child('usages').index(i), u, KEY_USAGES));
  });
  usages.forEach((u, i) => {
    if (seen.has(u)) errs.push(duplicate(sp.child('usages').index(i), u));
    seen.add(u);
  });
  const signerName = stringAt(spec, 'signerName');
  const legacyKept = prev !== undefined && stringAt(objectAt(prev, 'spec'), 'signerName') === LEGACY_UNKNOWN_SIGNER;
  if (signerName === LEGACY_UNKNOWN_SIGNER && !legacyKept) errs.push(invalidValue(sp.child('signerName'), signerName, 'the legacy signerName is not allowed via this API version'));
  else if (signerName !== LEGACY_UNKNOWN_SIGNER) errs.push(...validateSignerName(sp.child('signerName'), signerName));
  const seconds = spec.expirationSeconds;
  if (typeof seconds === 'number' && seconds < 600) {
    errs.push(invalidValue(sp.child('expirationSeconds'), seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, hasBothApprovedAndDenied(prev)));
  const cert = stringAt(objectAt(csr, 'status'), 'certificate');
  const certUnchanged = prev !== undefined && cert === stringAt(objectAt(prev, 'status'), 'certificate');
  if (!certUnchanged) {
    const certProblem = certificateProblem(bytesAt(objectAt(csr, 'status'), 'certificate'));
    if (certProblem !== '') errs.push(invalidValue(path('status', 'certificate'), '<certificate data>', certProblem));
  }
  return errs;
}

function conditionsOfType(csr: KubeObject, type: string): Json[] {
  return arrayAt(objectAt(csr, 'status'), 'conditions').filter((c) => c.type === type);
}

/** kube's ValidateCertificateSigningRequest{,Status,Approval}Update, chosen by the subresource. */
function validateCsrUpdate(next: KubeObject, prev: KubeObject, ctx: WriteContext): FieldError[] {
  const errs = validateCsr(next, prev);
  const conditions = path('status', 'conditions');
  for (const t of FINAL_TYPES) {
    if (conditionsOfType(next, t).length < conditionsOfType(prev, t).length) {
      errs.push(forbiddenField(conditions, `updates may not remove a condition of type ${JSON.stringify(t)}`));
    }
  }
  if (ctx.subresource !== 'approval') {
    for (const t of APPROVAL_TYPES) {
      const before = conditionsOfType(prev, t);
      const after = conditionsOfType(next, t);
      if (after.length > before.length) errs.push(forbiddenField(conditions, `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (after.length === before.length && !deepEqual(after, before)) {
        errs.push(forbiddenField(conditions, `updates may not modify a condition of type ${JSON.stringify(t)}`));
      }
    }
  }
  const cert = stringAt(objectAt(next, 'status'), 'certificate');
  const oldCert = stringAt(objectAt(prev, 'status'), 'certificate');
  if (cert !== oldCert) {
    if (ctx.subresource !== 'status') errs.push(forbiddenField(path('status', 'certificate'), 'updates may not set certificate content'));
    else if (oldCert !== '') errs.push(forbiddenField(path('status', 'certificate'), 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** Go's metav1.Time: whole seconds, UTC. */
function timestamp(now: Date): string {
  return `${now.toISOString().slice(0, 19)}Z`;
}

/**
 * kube's condition defaults (status True) and the timestamps its status and
 * approval strategies fill (lastUpdateTime, lastTransitionTime when missing).
 * Runs on the request before its conditions are taken, so subresource writes get
 * them too.
 */
function applyDefaults(csr: KubeObject, ctx: WriteContext): void {
  for (const c of arrayAt(objectAt(csr, 'status'), 'conditions')) {
    if (c.status === undefined || c.status === null || c.status === '') c.status = 'True';
    if (ctx.subresource === '') continue;
    if (typeof c.lastUpdateTime !== 'string' || c.lastUpdateTime === '') c.lastUpdateTime = timestamp(ctx.now);
    if (typeof c.lastTransitionTime !== 'string' || c.lastTransitionTime === '') c.lastTransitionTime = timestamp(ctx.now);
  }
}

/** The requesting user goes into spec; whatever the client said there is replaced. */
function prepareForCreate(csr: KubeObject, ctx: WriteContext): void {
  const spec = objectAt(csr, 'spec');
  if (spec === undefined) return;
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  const user = ctx.user;
  if (user === undefined) return;
  if (user.username !== '') spec.username = user.username;
  if (user.uid !== undefined && user.uid !== '') spec.uid = user.uid;
  if (user.groups.length > 0) spec.groups = [...user.groups];
  const extra = Object.entries(user.extra ?? {});
  if (extra.length > 0) spec.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
}

export const certificateSigningRequests = defineResource({
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  scope: 'Cluster',
  shortNames: ['csr'],
  // kube: "We don't care what you call your certificate requests" (path-safe only).
  nameValidation: 'path-segment',
  table: certificateSigningRequestTable,
  strategy: {
    resetFields: { create: ['status'], update: ['status'] },
    defaults: applyDefaults,
    prepareForCreate,
    // Requests are immutable once made: an update keeps the stored spec (status is a reset field).
    prepareForUpdate: (next, prev) => {
      next.spec = structuredClone(prev.spec);
    },
    validate: (csr) => validateCsr(csr, undefined),
    validateUpdate: validateCsrUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    selectableFields: (csr) => ({ 'spec.signerName': stringAt(objectAt(csr, 'spec'), 'signerName') }),
  },
  subresources: {
    status: { verbs: ['get', 'patch', 'update'], path: 'status' },
    approval: { verbs: ['get', 'patch', 'update'], path: 'status.conditions' },
  },
});
