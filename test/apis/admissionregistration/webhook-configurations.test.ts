// Webhook configurations through the real store: kube's v1 defaults, and one row
// per validation rule (the invalid form refused with kube's cause, the valid
// form accepted).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from '../../../src/apis/admissionregistration/v1/index.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeAll(async () => {
  h = await createStoreHarness();
});
afterAll(() => h.close());

const rule = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const hook = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'check.example.com',
  clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/validate' } },
  rules: [rule],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
let n = 0;
const config = (kind: string, webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: `c${++n}` }, webhooks });

describe('defaults', () => {
  test('validating: failurePolicy, matchPolicy, selectors, timeout, rule scope, service port; generation 1', async () => {
    const out = await h.create(validatingWebhookConfigurations, config('ValidatingWebhookConfiguration', [hook()]));
    expect(out.errors).toEqual([]);
    expect(out.stored?.metadata.generation).toBe(1);
    expect(out.stored?.webhooks).toEqual([
      {
        ...hook(),
        clientConfig: { service: { name: 'svc', namespace: 'ns', path: '/validate', port: 443 } },
        rules: [{ ...rule, scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
      },
    ]);
  });

  test('mutating: also reinvocationPolicy Never; explicit values kept', async () => {
    const out = await h.create(mutatingWebhookConfigurations, config('MutatingWebhookConfiguration', [hook({ failurePolicy: 'Ignore', timeoutSeconds: 3 })]));
    expect(out.errors).toEqual([]);
    expect(out.stored?.webhooks).toEqual([expect.objectContaining({ failurePolicy: 'Ignore', timeoutSeconds: 3, reinvocationPolicy: 'Never', matchPolicy: 'Equivalent' })]);
  });

  test('generation moves when the webhooks change, not otherwise', async () => {
    const created = await h.create(validatingWebhookConfigurations, config('ValidatingWebhookConfiguration', [hook()]));
    const same = await h.update(validatingWebhookConfigurations, { ...created.stored!, metadata: { ...created.stored!.metadata, labels: { a: 'b' } } });
    expect(same.stored?.metadata.generation).toBe(1);
    const changed = await h.update(validatingWebhookConfigurations, { ...same.stored!, webhooks: [hook({ timeoutSeconds: 20 })] });
    expect(changed.errors).toEqual([]);
    expect(changed.stored?.metadata.generation).toBe(2);
  });
});

describe('validation', () => {
  const cases: { name: string; webhooks: unknown[]; want: string[]; mutating?: boolean }[] = [
    { name: 'valid: url client config', webhooks: [hook({ clientConfig: { url: 'https://hook.example.com:8443/v' } })], want: [] },
    { name: 'valid: two webhooks', webhooks: [hook(), hook({ name: 'other.example.com' })], want: [] },
    { name: 'duplicate webhook names', webhooks: [hook(), hook()], want: ['webhooks[1].name: Duplicate value: "check.example.com"'] },
    { name: 'name with two segments', webhooks: [hook({ name: 'example.com' })], want: ['webhooks[0].name: Invalid value: "example.com": should be a domain with at least three segments separated by dots'] },
    { name: 'no client config target', webhooks: [hook({ clientConfig: {} })], want: ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'] },
    {
      name: 'url and service',
      webhooks: [hook({ clientConfig: { url: 'https://a.example.com', service: { name: 's', namespace: 'n' } } })],
      want: ['webhooks[0].clientConfig: Required value: exactly one of url or service is required'],
    },
    { name: 'http url', webhooks: [hook({ clientConfig: { url: 'http://a.example.com' } })], want: ['webhooks[0].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme'] },
    { name: 'url with a query', webhooks: [hook({ clientConfig: { url: 'https://a.example.com/p?x=1' } })], want: ['webhooks[0].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL'] },
    { name: 'service path without slash', webhooks: [hook({ clientConfig: { service: { name: 's', namespace: 'n', path: 'v' } } })], want: ['webhooks[0].clientConfig.service.path: Invalid value: "v": must start with a \'/\''] },
    { name: 'service without namespace', webhooks: [hook({ clientConfig: { service: { name: 's' } } })], want: ['webhooks[0].clientConfig.service.namespace: Required value: service namespace is required'] },
    { name: 'no operations', webhooks: [hook({ rules: [{ ...rule, operations: [] }] })], want: ['webhooks[0].rules[0].operations: Required value'] },
    { name: 'unknown operation', webhooks: [hook({ rules: [{ ...rule, operations: ['PATCH'] }] })], want: ['webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CREATE", "UPDATE", "DELETE", "CONNECT"'] },
    { name: 'wildcard with other operations', webhooks: [hook({ rules: [{ ...rule, operations: ['*', 'CREATE'] }] })], want: ['webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations'] },
    { name: 'no apiGroups', webhooks: [hook({ rules: [{ ...rule, apiGroups: [] }] })], want: ['webhooks[0].rules[0].apiGroups: Required value'] },
    { name: 'no resources', webhooks: [hook({ rules: [{ ...rule, resources: [] }] })], want: ['webhooks[0].rules[0].resources: Required value'] },
    { name: 'bad scope', webhooks: [hook({ rules: [{ ...rule, scope: 'Global' }] })], want: ['webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced", "*"'] },
    { name: 'no sideEffects', webhooks: [hook({ sideEffects: undefined })], want: ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun'] },
    { name: 'sideEffects Unknown (v1beta1 only)', webhooks: [hook({ sideEffects: 'Unknown' })], want: ['webhooks[0].sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"'] },
    { name: 'no admissionReviewVersions', webhooks: [hook({ admissionReviewVersions: [] })], want: ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1'] },
    { name: 'only unknown review versions', webhooks: [hook({ admissionReviewVersions: ['v2'] })], want: ['webhooks[0].admissionReviewVersions: Invalid value: ["v2"]: must include at least one of v1, v1beta1'] },
    { name: 'timeout over 30', webhooks: [hook({ timeoutSeconds: 31 })], want: ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds'] },
    { name: 'bad failurePolicy', webhooks: [hook({ failurePolicy: 'Sometimes' })], want: ['webhooks[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Ignore", "Fail"'] },
    { name: 'bad reinvocationPolicy', mutating: true, webhooks: [hook({ reinvocationPolicy: 'Always' })], want: ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "Never", "IfNeeded"'] },
    { name: 'valid: compiled matchConditions', webhooks: [hook({ matchConditions: [{ name: 'not-kube-system', expression: "request.namespace != 'kube-system'" }] })], want: [] },
    {
      name: 'matchCondition that does not compile',
      webhooks: [hook({ matchConditions: [{ name: 'm', expression: 'object.metadata.name ==' }] })],
      want: ['webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name ==": compilation failed: Unexpected token: EOF (at 1:24)'],
    },
    {
      name: 'matchCondition on a variable webhooks do not have (params)',
      webhooks: [hook({ matchConditions: [{ name: 'm', expression: "authorizer.group('').resource('pods').check('get').allowed()" }, { name: 'n', expression: 'params.x == 1' }] })],
      want: ['webhooks[0].matchConditions[1].expression: Invalid value: "params.x == 1": compilation failed: Unknown variable: params (at 1:1)'],
    },
    {
      name: 'valid: the authorizer\'s field and label selectors (AuthorizeWithSelectors, GA and locked on in 1.36)',
      webhooks: [hook({ matchConditions: [{ name: 'm', expression: "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n1').labelSelector('app=web').check('list').allowed()" }] })],
      want: [],
    },
    { name: 'matchCondition not a bool', webhooks: [hook({ matchConditions: [{ name: 'm', expression: "'yes'" }] })], want: ['webhooks[0].matchConditions[0].expression: Invalid value: "\'yes\'": must evaluate to bool'] },
    {
      name: 'hostile: a matchCondition nested past the parser\'s stack is refused, not a 500',
      webhooks: [hook({ matchConditions: [{ name: 'm', expression: `${'!'.repeat(50_000)}true` }] })],
      want: [`webhooks[0].matchConditions[0].expression: Invalid value: "${'!'.repeat(50_000)}true": compilation failed: max recursion depth exceeded`],
    },
    { name: 'duplicate matchCondition names', webhooks: [hook({ matchConditions: [{ name: 'm', expression: 'true' }, { name: 'm', expression: 'true' }] })], want: ['webhooks[0].matchConditions[1].name: Duplicate value: "m"'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const def = c.mutating === true ? mutatingWebhookConfigurations : validatingWebhookConfigurations;
      const out = await h.create(def, config(def.kind, c.webhooks));
      expect(out.errors).toEqual(c.want);
      expect(out.stored === undefined).toBe(c.want.length > 0);
    });
  }
});
