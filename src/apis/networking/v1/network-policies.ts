// NetworkPolicies: which traffic reaches (ingress) and leaves (egress) the pods a
// selector picks. kube defaults port protocols to TCP and policyTypes from the
// rules present, then checks ports, peers (one kind each; ipBlock CIDRs with
// except inside them) and the policy types.
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/object.js';
import { type FieldError, type FieldPath, forbiddenField, invalidValue, notSupported, path, required } from '../../../schema/field-errors.js';
import { inclusiveRangeError, isValidPortName } from '../../../registry/validation/common.js';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../../../registry/validation/label-selector.js';
import { arrayAt, bumpGenerationIfChanged, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';
import { ownField } from '../../../schema/field-path.js';
import { networkPolicyTable } from './networking-table.js';
import { cidrContains, cidrErrors, parseCidr } from './net.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;
const POLICY_TYPES = ['Ingress', 'Egress'] as const;

interface PolicyOptions extends LabelSelectorValidationOptions {
  /** CIDRs the stored policy already had: an update keeps them without re-checking. */
  readonly existingCIDRs: ReadonlySet<string>;
}

/** SetDefaults_NetworkPolicyPort and SetDefaults_NetworkPolicy. */
function defaultNetworkPolicy(np: KubeObject): void {
  const spec = objectAt(np, 'spec');
  if (spec === undefined) return;
  for (const rules of ['ingress', 'egress']) {
    for (const rule of arrayAt(spec, rules)) for (const port of arrayAt(rule, 'ports')) if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
  const types = ownField(spec, 'policyTypes');
  if (!Array.isArray(types) || types.length === 0) spec.policyTypes = arrayAt(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

function portNumberErrors(value: number): string[] {
  return Number.isInteger(value) && value >= 1 && value <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

function validatePort(port: Json, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = ownField(port, 'protocol');
  if (typeof protocol === 'string' && !(PROTOCOLS as readonly string[]).includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, PROTOCOLS));
  const value = ownField(port, 'port');
  const endPort = ownField(port, 'endPort');
  const hasEnd = typeof endPort === 'number';
  if (typeof value === 'number') {
    for (const msg of portNumberErrors(value)) errs.push(invalidValue(p.child('port'), value, msg));
    if (hasEnd) {
      if (endPort < value) errs.push(invalidValue(p.child('endPort'), endPort, 'must be greater than or equal to `port`'));
      for (const msg of portNumberErrors(endPort)) errs.push(invalidValue(p.child('endPort'), endPort, msg));
    }
  } else if (typeof value === 'string') {
    if (hasEnd) errs.push(invalidValue(p.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const msg of isValidPortName(value)) errs.push(invalidValue(p.child('port'), value, msg));
  } else if (hasEnd) {
    errs.push(invalidValue(p.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function validateCidr(value: string, p: FieldPath, opts: PolicyOptions): FieldError[] {
  if (opts.existingCIDRs.has(value)) return [];
  return cidrErrors(value, false).map((msg) => invalidValue(p, value, msg));
}

function validateIPBlock(block: Json, p: FieldPath, opts: PolicyOptions): FieldError[] {
  const cidr = stringAt(block, 'cidr');
  if (cidr === '') return [required(p.child('cidr'))];
  const errs = validateCidr(cidr, p.child('cidr'), opts);
  const outer = parseCidr(cidr);
  if (outer === undefined) return errs;
  const except = ownField(block, 'except');
  (Array.isArray(except) ? except : []).forEach((e, i) => {
    const value = typeof e === 'string' ? e : '';
    const ep = p.child('except').index(i);
    errs.push(...validateCidr(value, ep, opts));
    const inner = parseCidr(value);
    if (inner !== undefined && (!cidrContains(outer, inner) || outer.prefix >= inner.prefix)) errs.push(invalidValue(ep, value, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

function validatePeer(peer: Json, p: FieldPath, opts: PolicyOptions): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const field of ['podSelector', 'namespaceSelector']) {
    const selector = objectAt(peer, field);
    if (selector === undefined) continue;
    peers++;
    errs.push(...validateLabelSelector(selector, p.child(field), opts));
  }
  const block = objectAt(peer, 'ipBlock');
  if (block !== undefined) {
    peers++;
    errs.push(...validateIPBlock(block, p.child('ipBlock'), opts));
  }
  if (peers === 0) errs.push(required(p, 'must specify a peer'));
  else if (peers > 1 && block !== undefined) errs.push(forbiddenField(p, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateSpec(np: KubeObject, opts: PolicyOptions): FieldError[] {
  const spec = objectAt(np, 'spec') ?? {};
  const sp = path('spec');
  const errs = validateLabelSelector(objectAt(spec, 'podSelector') ?? {}, sp.child('podSelector'), opts);
  for (const [rules, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    arrayAt(spec, rules).forEach((rule, i) => {
      const rp = sp.child(rules).index(i);
      arrayAt(rule, 'ports').forEach((port, j) => errs.push(...validatePort(port, rp.child('ports').index(j))));
      arrayAt(rule, peers).forEach((peer, j) => errs.push(...validatePeer(peer, rp.child(peers).index(j), opts)));
    });
  }
  const types = ownField(spec, 'policyTypes');
  const list = Array.isArray(types) ? types : [];
  if (list.length > POLICY_TYPES.length) return [...errs, invalidValue(sp.child('policyTypes'), list, 'may not specify more than two policyTypes')];
  list.forEach((t, i) => {
    if (!(POLICY_TYPES as readonly unknown[]).includes(t)) errs.push(notSupported(sp.child('policyTypes').index(i), t, POLICY_TYPES));
  });
  return errs;
}

export function validateNetworkPolicy(np: KubeObject): FieldError[] {
  return validateSpec(np, { existingCIDRs: new Set() });
}

/** Every CIDR of the stored policy's ipBlocks, which an update keeps as they were. */
function storedCIDRs(prev: KubeObject): Set<string> {
  const found = new Set<string>();
  const spec = objectAt(prev, 'spec');
  for (const [rules, peers] of [['ingress', 'from'], ['egress', 'to']] as const) {
    for (const rule of arrayAt(spec, rules)) {
      for (const peer of arrayAt(rule, peers)) {
        const block = objectAt(peer, 'ipBlock');
        if (block === undefined) continue;
        found.add(stringAt(block, 'cidr'));
        const except = ownField(block, 'except');
        if (Array.isArray(except)) for (const e of except) if (typeof e === 'string') found.add(e);
      }
    }
  }
  return found;
}

function validateNetworkPolicyUpdate(next: KubeObject, prev: KubeObject): FieldError[] {
  // A stored podSelector with label values kube once accepted stays writable.
  const allowInvalidLabelValueInSelector = validateLabelSelector(objectAt(objectAt(prev, 'spec'), 'podSelector') ?? {}, path()).length > 0;
  return validateSpec(next, { existingCIDRs: storedCIDRs(prev), allowInvalidLabelValueInSelector });
}

export const networkPolicies = defineResource({
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  scope: 'Namespaced',
  shortNames: ['netpol'],
  table: networkPolicyTable,
  strategy: {
    defaults: defaultNetworkPolicy,
    prepareForCreate: (np) => {
      np.metadata.generation = 1;
    },
    prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev),
    validate: validateNetworkPolicy,
    validateUpdate: validateNetworkPolicyUpdate,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
  },
});
