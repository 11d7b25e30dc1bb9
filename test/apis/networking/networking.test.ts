// Kind rules of networking.k8s.io/v1 through the real store: ingress rules, paths,
// backends, TLS and status; ingress classes (controller, parameters, immutability);
// network policy defaults, ports, peers and ipBlocks; service CIDRs; IP addresses;
// and the kinds' columns.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ingressClasses, ingresses, ipAddresses, networkPolicies, serviceCIDRs } from '../../../src/apis/networking/v1/index.js';
import type { ResourceDefinition } from '../../../src/registry/define-resource.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const backend = { service: { name: 'web', port: { number: 80 } } };
const ingress = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): KubeObject => ({ metadata: { name: 'ing', namespace: 'ns', ...metadata }, spec });
const httpRule = (paths: unknown[], host?: string) => ({ ...(host === undefined ? {} : { host }), http: { paths } });
const netpol = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'np', namespace: 'ns' }, spec: { podSelector: {}, ...spec } });
const peer = (ipBlock: unknown) => ({ ingress: [{ from: [{ ipBlock }] }] });
const DNS1123 = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const createCases: { name: string; def: ResourceDefinition; input: KubeObject; want: string[] }[] = [
  { name: 'ingress with a default backend only', def: ingresses, input: ingress({ defaultBackend: backend }), want: [] },
  { name: 'ingress with neither', def: ingresses, input: ingress({}), want: ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified'] },
  {
    name: 'paths: missing pathType, unknown pathType, relative and unsafe paths',
    def: ingresses,
    input: ingress({
      rules: [
        httpRule([
          { path: '/', backend },
          { path: '/', pathType: 'Regex', backend },
          { path: 'rel', pathType: 'Exact', backend },
          { path: '/a//b/..', pathType: 'Prefix', backend },
          { path: 'x', pathType: 'ImplementationSpecific', backend },
          { pathType: 'ImplementationSpecific', backend },
        ]),
      ],
    }),
    want: [
      'spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
      'spec.rules[0].http.paths[1].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      'spec.rules[0].http.paths[2].path: Invalid value: "rel": must be an absolute path',
      "spec.rules[0].http.paths[3].path: Invalid value: \"/a//b/..\": must not contain '//'",
      "spec.rules[0].http.paths[3].path: Invalid value: \"/a//b/..\": cannot end with '/..'",
      'spec.rules[0].http.paths[4].path: Invalid value: "x": must be an absolute path',
    ],
  },
  { name: 'rule without paths', def: ingresses, input: ingress({ rules: [httpRule([])] }), want: ['spec.rules[0].http.paths: Required value'] },
  {
    name: 'hosts: an IP, a bad wildcard, a good wildcard',
    def: ingresses,
    input: ingress({ rules: [{ host: '10.0.0.1' }, { host: 'a.*.com' }, { host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] }),
    want: [
      'spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
      "spec.rules[1].host: Invalid value: \"a.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ],
  },
  {
    name: 'backends: none, both, port name and number, no port, bad service name',
    def: ingresses,
    input: ingress({
      rules: [
        httpRule([
          { path: '/a', pathType: 'Prefix', backend: {} },
          { path: '/b', pathType: 'Prefix', backend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } },
          { path: '/c', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http', number: 80 } } } },
          { path: '/d', pathType: 'Prefix', backend: { service: { name: 'web', port: {} } } },
          { path: '/e', pathType: 'Prefix', backend: { service: { name: '1web', port: { number: 70000 } } } },
          { path: '/f', pathType: 'Prefix', backend: { resource: { kind: '', name: 'b' } } },
        ]),
      ],
    }),
    want: [
      'spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required',
      'spec.rules[0].http.paths[1].backend: Invalid value: "": cannot set both resource and service backends',
      'spec.rules[0].http.paths[2].backend: Invalid value: "": cannot set both port name & port number',
      'spec.rules[0].http.paths[3].backend: Required value: port name or number is required',
      "spec.rules[0].http.paths[4].backend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.rules[0].http.paths[4].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.rules[0].http.paths[5].backend.resource.kind: Required value',
    ],
  },
  {
    name: 'tls hosts and secret names',
    def: ingresses,
    input: ingress({ defaultBackend: backend, tls: [{ hosts: ['Bad_Host'], secretName: 'Not_A_Secret' }] }),
    want: [`spec.tls[0].hosts[0]: Invalid value: "Bad_Host": ${DNS1123}`, `spec.tls[0].secretName: Invalid value: "Not_A_Secret": ${DNS1123}`],
  },
  {
    name: 'class annotation must agree with ingressClassName',
    def: ingresses,
    input: ingress({ defaultBackend: backend, ingressClassName: 'nginx' }, { annotations: { 'kubernetes.io/ingress.class': 'traefik' } }),
    want: ['annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified'],
  },
  { name: 'ingress class', def: ingressClasses, input: { metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx' } }, want: [] },
  {
    name: 'ingress class controller not domain-prefixed',
    def: ingressClasses,
    input: { metadata: { name: 'c' }, spec: { controller: 'nginx' } },
    want: ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")'],
  },
  {
    name: 'ingress class parameters: namespace scope without namespace, cluster scope with one',
    def: ingressClasses,
    input: { metadata: { name: 'c' }, spec: { controller: 'example.com/c', parameters: { kind: 'Config', name: 'x', scope: 'Namespace' } } },
    want: ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
  },
  {
    name: 'ingress class parameters: cluster scope with a namespace, unknown scope',
    def: ingressClasses,
    input: { metadata: { name: 'c' }, spec: { controller: 'example.com/c', parameters: { kind: 'Config', name: 'x', scope: 'Cluster', namespace: 'ns' } } },
    want: ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
  },
  {
    name: 'network policy ports',
    def: networkPolicies,
    input: netpol({ ingress: [{ ports: [{ protocol: 'ICMP', port: 80 }, { port: 90, endPort: 80 }, { port: 'http', endPort: 90 }, { endPort: 90 }, { port: 0 }] }] }),
    want: [
      'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      'spec.ingress[0].ports[1].endPort: Invalid value: 80: must be greater than or equal to `port`',
      'spec.ingress[0].ports[2].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      'spec.ingress[0].ports[3].endPort: Invalid value: 90: may not be specified when `port` is not specified',
      'spec.ingress[0].ports[4].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    ],
  },
  {
    name: 'network policy peers: none, ipBlock with another',
    def: networkPolicies,
    input: netpol({ egress: [{ to: [{}, { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }] }] }),
    want: ['spec.egress[0].to[0]: Required value: must specify a peer', 'spec.egress[0].to[1]: Forbidden: may not specify both ipBlock and another peer'],
  },
  { name: 'ipBlock without cidr', def: networkPolicies, input: netpol(peer({})), want: ['spec.ingress[0].from[0].ipBlock.cidr: Required value'] },
  {
    name: 'ipBlock cidr and except',
    def: networkPolicies,
    input: netpol({ ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8', '11.0.0.0/16', 'x', '10.1.0.0/16'] } }, { ipBlock: { cidr: '10.0.0.0/33' } }] }] }),
    want: [
      'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
      'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "11.0.0.0/16": must be a strict subset of `cidr`',
      'spec.ingress[0].from[0].ipBlock.except[2]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.ingress[0].from[1].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ],
  },
  {
    name: 'policy types',
    def: networkPolicies,
    input: netpol({ policyTypes: ['Ingress', 'Sideways'] }),
    want: ['spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"'],
  },
  {
    name: 'pod selector label value',
    def: networkPolicies,
    input: netpol({ podSelector: { matchLabels: { app: 'a b' } } }),
    want: [
      "spec.podSelector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  },
  { name: 'dual-stack service CIDR', def: serviceCIDRs, input: { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.0/16', 'fd00::/108'] } }, want: [] },
  {
    name: 'service CIDR: not canonical, bad, same family twice',
    def: serviceCIDRs,
    input: { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.1/16', '10.1.0.0/16'] } },
    want: [
      'spec.cidrs[0]: Invalid value: "10.0.0.1/16": must be in canonical form ("10.0.0.0/16")',
      'spec.cidrs: Invalid value: ["10.0.0.1/16","10.1.0.0/16"]: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
    ],
  },
  { name: 'service CIDR without cidrs', def: serviceCIDRs, input: { metadata: { name: 's' }, spec: {} }, want: ['spec.cidrs: Required value: at least one CIDR required'] },
  {
    name: 'service CIDR with three',
    def: serviceCIDRs,
    input: { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.0/16', 'fd00::/108', '10.1.0.0/16'] } },
    want: ['spec.cidrs: Invalid value: {"cidrs":["10.0.0.0/16","fd00::/108","10.1.0.0/16"]}: may only hold up to 2 values'],
  },
  { name: 'IP address held by a service', def: ipAddresses, input: { metadata: { name: '10.0.0.10' }, spec: { parentRef: { resource: 'services', namespace: 'default', name: 'web' } } }, want: [] },
  { name: 'IPv6 address in canonical form', def: ipAddresses, input: { metadata: { name: 'fd00::a' }, spec: { parentRef: { resource: 'services', name: 'web' } } }, want: [] },
  {
    name: 'IP address not in canonical form',
    def: ipAddresses,
    input: { metadata: { name: 'fd00:0::a' }, spec: { parentRef: { resource: 'services', name: 'web' } } },
    want: ['metadata.name: Invalid value: "fd00:0::a": must be in canonical form ("fd00::a")'],
  },
  {
    name: 'IP address named with no address',
    def: ipAddresses,
    input: { metadata: { name: 'web' }, spec: { parentRef: { resource: 'services', name: 'web' } } },
    want: ['metadata.name: Invalid value: "web": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
  },
  {
    name: 'IP address parentRef without resource and name',
    def: ipAddresses,
    input: { metadata: { name: '10.0.0.11' }, spec: { parentRef: { group: 'Bad_Group' } } },
    want: [`spec.parentRef.group: Invalid value: "Bad_Group": ${DNS1123}`, 'spec.parentRef.resource: Required value', 'spec.parentRef.name: Required value'],
  },
];

describe('create', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const res = await h.create(c.def, c.input);
      expect(res.errors).toEqual(c.want);
      if (c.want.length === 0) expect(res.stored).toBeDefined();
      else expect(res.stored).toBeUndefined();
    });
  }
});

test('IP address without parentRef', async () => {
  // The schema layer also checks the absent struct's own required fields (it reads
  // required structs as Go values); kube reports only the missing parentRef.
  const res = await h.create(ipAddresses, { metadata: { name: '10.0.0.13' }, spec: {} });
  expect(res.errors).toContain('spec.parentRef: Required value');
  expect(res.stored).toBeUndefined();
});

describe('defaults and system fields', () => {
  test('network policy: TCP ports, Ingress policy type, plus Egress when egress rules exist', async () => {
    const a = await h.create(networkPolicies, netpol({ ingress: [{ ports: [{ port: 80 }] }] }));
    expect(a.stored?.spec).toEqual({ podSelector: {}, ingress: [{ ports: [{ port: 80, protocol: 'TCP' }] }], policyTypes: ['Ingress'] });
    expect(a.stored?.metadata.generation).toBe(1);
    const b = await h.create(networkPolicies, { metadata: { name: 'e', namespace: 'ns' }, spec: { podSelector: {}, egress: [{}] } });
    expect(b.stored?.spec).toMatchObject({ policyTypes: ['Ingress', 'Egress'] });
    const c = await h.create(networkPolicies, { metadata: { name: 'x', namespace: 'ns' }, spec: { podSelector: {}, egress: [{}], policyTypes: ['Egress'] } });
    expect(c.stored?.spec).toMatchObject({ policyTypes: ['Egress'] });
  });

  test('ingress class parameters default to Cluster scope', async () => {
    const res = await h.create(ingressClasses, { metadata: { name: 'c' }, spec: { controller: 'example.com/c', parameters: { kind: 'Config', name: 'x' } } });
    expect(res.stored?.spec).toEqual({ controller: 'example.com/c', parameters: { kind: 'Config', name: 'x', scope: 'Cluster' } });
  });

  test('ingress: status starts empty, generation moves with spec only, deprecated class annotation warns', async () => {
    const created = await h.create(ingresses, { ...ingress({ defaultBackend: backend }, { annotations: { 'kubernetes.io/ingress.class': 'nginx' } }), status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
    expect(created.stored?.status).toEqual({ loadBalancer: {} });
    expect(created.stored?.metadata.generation).toBe(1);
    expect(created.warnings).toEqual(["annotation \"kubernetes.io/ingress.class\" is deprecated, please use 'spec.ingressClassName' instead"]);
    const labelled = await h.update(ingresses, { ...created.stored!, metadata: { ...created.stored!.metadata, labels: { a: 'b' } } });
    expect(labelled.stored?.metadata.generation).toBe(1);
    expect(labelled.warnings).toEqual([]);
    const changed = await h.update(ingresses, { ...labelled.stored!, spec: { defaultBackend: { service: { name: 'api', port: { number: 81 } } } }, status: { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } } });
    expect(changed.stored?.metadata.generation).toBe(2);
    expect(changed.stored?.status).toEqual({ loadBalancer: {} });
  });
});

describe('update', () => {
  test('ingress status: IPs and host names checked; spec kept', async () => {
    const created = await h.create(ingresses, ingress({ defaultBackend: backend }));
    const bad = await h.updateStatus(ingresses, { ...created.stored!, status: { loadBalancer: { ingress: [{ ip: '1.2.3' }, { hostname: '10.0.0.1' }] } } });
    expect(bad.errors).toEqual([
      'status.loadBalancer.ingress[0].ip: Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address',
    ]);
    const ok = await h.updateStatus(ingresses, { ...created.stored!, spec: { defaultBackend: { service: { name: 'other', port: { number: 1 } } } }, status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { hostname: 'lb.example.com' }, { ip: 'FD00::1' }] } } });
    // A non-canonical IPv6 form is accepted here (a legacy field); kube only warns of it.
    expect(ok.errors).toEqual([]);
    expect(ok.stored?.status).toEqual({ loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { hostname: 'lb.example.com' }, { ip: 'FD00::1' }] } });
    expect(ok.stored?.spec).toEqual({ defaultBackend: backend });
  });

  test('ingress class controller is immutable', async () => {
    await h.create(ingressClasses, { metadata: { name: 'c' }, spec: { controller: 'example.com/a' } });
    const res = await h.update(ingressClasses, { metadata: { name: 'c' }, spec: { controller: 'example.com/b' } });
    expect(res.causes).toEqual([{ field: 'spec.controller', reason: 'FieldValueInvalid', message: 'Invalid value: "example.com/b": field is immutable' }]);
    expect(res.stored?.spec).toEqual({ controller: 'example.com/a' });
  });

  test('service CIDR: ranges fixed, a second family may be added', async () => {
    await h.create(serviceCIDRs, { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.0/16'] } });
    const changed = await h.update(serviceCIDRs, { metadata: { name: 's' }, spec: { cidrs: ['10.1.0.0/16'] } });
    expect(changed.errors).toEqual(['spec.cidrs[0]: Invalid value: "10.1.0.0/16": field is immutable']);
    const dual = await h.update(serviceCIDRs, { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.0/16', 'fd00::/108'] } });
    expect(dual.errors).toEqual([]);
    const shrunk = await h.update(serviceCIDRs, { metadata: { name: 's' }, spec: { cidrs: ['10.0.0.0/16'] } });
    expect(shrunk.errors).toEqual(['spec.cidrs: Invalid value: ["10.0.0.0/16"]: field is immutable']);
  });

  test('IP address parentRef is immutable', async () => {
    await h.create(ipAddresses, { metadata: { name: '10.0.0.12' }, spec: { parentRef: { resource: 'services', name: 'a' } } });
    const res = await h.update(ipAddresses, { metadata: { name: '10.0.0.12' }, spec: { parentRef: { resource: 'services', name: 'b' } } });
    expect(res.causes.map((c) => [c.field, c.reason])).toEqual([['spec.parentRef', 'FieldValueInvalid']]);
  });

  test('network policy update keeps stored CIDRs it would now refuse', async () => {
    const created = await h.create(networkPolicies, netpol(peer({ cidr: '10.0.0.0/8' })));
    expect(created.errors).toEqual([]);
    const res = await h.update(networkPolicies, { ...created.stored!, spec: { ...(created.stored!.spec as object), ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['12.0.0.0/8'] } }] }] } });
    expect(res.errors).toEqual(['spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "12.0.0.0/8": must be a strict subset of `cidr`']);
  });
});

describe('tables', () => {
  const now = new Date('2026-01-02T03:04:05Z');
  const metadata = { name: 'x', creationTimestamp: '2026-01-02T03:04:00Z' };
  const headers = (def: ResourceDefinition) => def.table!.columns.map((c) => c.name);

  test('ingresses: class, hosts (three, then more), sorted addresses, ports', () => {
    expect(headers(ingresses)).toEqual(['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    const obj: KubeObject = {
      metadata,
      spec: { ingressClassName: 'nginx', rules: [{ host: 'a.com' }, {}, { host: 'b.com' }, { host: 'c.com' }, { host: 'd.com' }], tls: [{ hosts: ['a.com'] }] },
      status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }] } },
    };
    expect(ingresses.table!.cells(obj, now)).toEqual(['x', 'nginx', 'a.com,b.com,c.com + 2 more...', '10.0.0.1,10.0.0.2,lb.example.com', '80, 443', '5s']);
    expect(ingresses.table!.cells({ metadata, spec: { defaultBackend: backend } }, now)).toEqual(['x', '<none>', '*', '', '80', '5s']);
  });

  test('ingress classes: controller and parameters', () => {
    expect(headers(ingressClasses)).toEqual(['Name', 'Controller', 'Parameters', 'Age']);
    expect(ingressClasses.table!.cells({ metadata, spec: { controller: 'example.com/c', parameters: { apiGroup: 'k8s.example.com', kind: 'Config', name: 'p' } } }, now)).toEqual(['x', 'example.com/c', 'Config.k8s.example.com/p', '5s']);
    expect(ingressClasses.table!.cells({ metadata, spec: { controller: 'example.com/c' } }, now)).toEqual(['x', 'example.com/c', '<none>', '5s']);
  });

  test('network policies: the pod selector as text', () => {
    expect(headers(networkPolicies)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(networkPolicies.table!.cells({ metadata, spec: { podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] } } }, now)).toEqual(['x', 'app=web,tier in (a,b)', '5s']);
    expect(networkPolicies.table!.cells({ metadata, spec: { podSelector: {} } }, now)).toEqual(['x', '<none>', '5s']);
  });

  test('service CIDRs and IP addresses', () => {
    expect(headers(serviceCIDRs)).toEqual(['Name', 'CIDRs', 'Age']);
    expect(serviceCIDRs.table!.cells({ metadata, spec: { cidrs: ['10.0.0.0/16', 'fd00::/108'] } }, now)).toEqual(['x', '10.0.0.0/16,fd00::/108', '5s']);
    expect(headers(ipAddresses)).toEqual(['Name', 'ParentRef']);
    expect(ipAddresses.table!.cells({ metadata, spec: { parentRef: { resource: 'services', namespace: 'default', name: 'kubernetes' } } }, now)).toEqual(['x', 'services/default/kubernetes']);
    expect(ipAddresses.table!.cells({ metadata, spec: { parentRef: { group: 'gateway.networking.k8s.io', resource: 'Gateways', name: 'g' } } }, now)).toEqual(['x', 'gateways.gateway.networking.k8s.io/g']);
  });
});

describe('hostile values are data', () => {
  test('prototype-named label keys and hosts are checked like any other', async () => {
    const np = await h.create(networkPolicies, netpol({ podSelector: { matchLabels: JSON.parse('{"constructor":"x","__proto__":"y"}') } }));
    expect(np.errors).toEqual([
      "spec.podSelector.matchLabels: Invalid value: \"__proto__\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
    const ok = await h.create(networkPolicies, { ...netpol({ podSelector: { matchLabels: { constructor: 'x' } } }), metadata: { name: 'np2', namespace: 'ns' } });
    expect((ok.stored?.spec as { podSelector: unknown }).podSelector).toEqual({ matchLabels: { constructor: 'x' } });
    const ing = await h.create(ingresses, ingress({ rules: [{ host: '__proto__' }] }));
    expect(ing.errors).toEqual([`spec.rules[0].host: Invalid value: "__proto__": ${DNS1123}`]);
  });

  test('a very long path is refused or stored, never a crash', async () => {
    const res = await h.create(ingresses, ingress({ rules: [httpRule([{ path: `/${'a/'.repeat(50_000)}..`, pathType: 'Prefix', backend }])] }));
    expect(res.errors).toEqual([expect.stringMatching(/^spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: ".*": cannot end with '\/\.\.'$/)]);
  });
});
