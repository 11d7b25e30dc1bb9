// `kubectl get` columns of networking.k8s.io kinds, as kube's printers render them:
// ingresses NAME CLASS HOSTS ADDRESS PORTS AGE; ingressclasses NAME CONTROLLER
// PARAMETERS AGE; networkpolicies NAME POD-SELECTOR AGE; ipaddresses NAME
// PARENTREF; servicecidrs NAME CIDRS AGE.
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { LabelSelectorError, labelSelectorRequirements, renderLabelSelector, type LabelSelector } from '../../../schema/label-selector.js';
import { ownField } from '../../../schema/field-path.js';
import { arrayAt, objectAt, stringAt, type Json } from '../../core/v1/helpers.js';

const HOSTS_SHOWN = 3;

/** Up to three hosts, then "+ N more..."; "*" when no rule names a host. */
function hostsCell(rules: Json[]): string {
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === HOSTS_SHOWN) more = true;
    const host = stringAt(rule, 'host');
    if (!more && host !== '') list.push(host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - HOSTS_SHOWN} more...` : list.join(',');
}

/**
 * Load-balancer IPs (else hostnames), sorted and de-duplicated. kube clips this
 * to 16 characters only for narrow output, and its server prints wide.
 */
function addressCell(status: Json | undefined): string {
  const found = new Set<string>();
  for (const ing of arrayAt(objectAt(status, 'loadBalancer'), 'ingress')) {
    const v = stringAt(ing, 'ip') || stringAt(ing, 'hostname');
    if (v !== '') found.add(v);
  }
  return [...found].sort().join(',');
}

export const ingressTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Class', description: 'The IngressClass that serves the ingress.' }),
    column({ name: 'Hosts', description: 'Hosts the rules match before their paths.' }),
    column({ name: 'Address', description: 'Where the load balancer receives the traffic.' }),
    column({ name: 'Ports', description: 'Ports the ingress opens: 80, and 443 with TLS.' }),
    AGE_COLUMN,
  ],
  cells: (ing, now) => {
    const spec = objectAt(ing, 'spec');
    const className = ownField(spec, 'ingressClassName');
    return [
      nameOf(ing),
      typeof className === 'string' ? className : '<none>',
      hostsCell(arrayAt(spec, 'rules')),
      addressCell(objectAt(ing, 'status')),
      arrayAt(spec, 'tls').length > 0 ? '80, 443' : '80',
      ageOf(ing, now),
    ];
  },
};

export const ingressClassTable: TableDefinition = {
  columns: [
    NAME_COLUMN,
    column({ name: 'Controller', description: 'The controller that implements the class.' }),
    column({ name: 'Parameters', description: 'The object that configures the controller, as kind[.group]/name.' }),
    AGE_COLUMN,
  ],
  cells: (ic, now) => {
    const spec = objectAt(ic, 'spec');
    const params = objectAt(spec, 'parameters');
    let parameters = '<none>';
    if (params !== undefined) {
      const group = ownField(params, 'apiGroup');
      parameters = `${stringAt(params, 'kind')}${typeof group === 'string' ? `.${group}` : ''}/${stringAt(params, 'name')}`;
    }
    return [nameOf(ic), stringAt(spec, 'controller'), parameters, ageOf(ic, now)];
  },
};

/** metav1.FormatLabelSelector: the selector's text, "<none>" when it selects everything. */
export function formatLabelSelector(selector: unknown): string {
  if (selector === null || typeof selector !== 'object') return '<none>';
  try {
    const text = renderLabelSelector(labelSelectorRequirements(selector as LabelSelector));
    return text === '' ? '<none>' : text;
  } catch (err) {
    if (err instanceof LabelSelectorError) return '<error>';
    throw err;
  }
}

export const networkPolicyTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Pod-Selector', description: 'The pods the policy applies to.' }), AGE_COLUMN],
  cells: (np, now) => [nameOf(np), formatLabelSelector(objectAt(objectAt(np, 'spec'), 'podSelector')), ageOf(np, now)],
};

/** kube's printer also computes an age, but declares no column for it; kubectl shows these two. */
export const ipAddressTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'ParentRef', description: 'The object that holds the address, as resource[.group][/namespace]/name.' })],
  cells: (ip) => {
    const ref = objectAt(objectAt(ip, 'spec'), 'parentRef');
    if (ref === undefined) return [nameOf(ip), '<none>'];
    const group = stringAt(ref, 'group');
    const resource = stringAt(ref, 'resource');
    const namespace = stringAt(ref, 'namespace');
    const gr = (group === '' ? resource : `${resource}.${group}`).toLowerCase();
    return [nameOf(ip), `${gr}${namespace === '' ? '' : `/${namespace}`}/${stringAt(ref, 'name')}`];
  },
};

export const serviceCIDRTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'CIDRs', description: 'The ranges, comma-separated.' }), AGE_COLUMN],
  cells: (obj, now) => {
    const cidrs = ownField(objectAt(obj, 'spec'), 'cidrs');
    return [nameOf(obj), (Array.isArray(cidrs) ? cidrs.filter((c) => typeof c === 'string') : []).join(','), ageOf(obj, now)];
  },
};
