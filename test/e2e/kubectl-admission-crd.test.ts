// admissionregistration, apiextensions and the review kinds with real kubectl
// (1.27 and 1.33): a webhook configuration created from a file comes back with
// kube's defaults and a matchCondition that does not compile is refused with
// kube's text; an applied CRD is listed by `kubectl get crd` and Established;
// `kubectl auth can-i --list` is answered by SelfSubjectRulesReview; a token
// from `kubectl create token` is accepted by a TokenReview created from a file.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const binaries = kubectlBinaries(['1.27', '1.33']);
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());

function fails(k: Kubectl, args: string[], input?: string): string {
  const res = k.run(args, input === undefined ? {} : { input });
  expect(res.code, `${args.join(' ')} should fail`).not.toBe(0);
  return res.stderr;
}

const webhookYaml = (name: string, matchCondition: string): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: ${name}
webhooks:
- name: check.example.com
  clientConfig:
    service: {namespace: default, name: hook, path: /validate}
  rules:
  - operations: [CREATE]
    apiGroups: [""]
    apiVersions: [v1]
    resources: [pods]
  sideEffects: None
  admissionReviewVersions: [v1]
  matchConditions:
  - name: not-system
    expression: ${JSON.stringify(matchCondition)}
`;

const crdYaml = (plural: string): string => `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: ${plural}, kind: Widget${plural.length}, shortNames: [w${plural.length}]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`;

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`admission, CRDs and reviews with ${binary.name}`, () => {
    let k: Kubectl;
    const tag = binary.name.replace(/\W/g, '');
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
    });

    test('create -f of a ValidatingWebhookConfiguration reads back with the defaults; get prints WEBHOOKS', () => {
      const name = `vwc-${tag}`;
      expect(ok(k, ['create', '-f', '-'], webhookYaml(name, "request.namespace != 'kube-system'"))).toContain(`validatingwebhookconfiguration.admissionregistration.k8s.io/${name} created`);
      const got = JSON.parse(ok(k, ['get', 'validatingwebhookconfiguration', name, '-o', 'json']));
      expect(got.webhooks[0]).toMatchObject({
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        timeoutSeconds: 10,
        namespaceSelector: {},
        objectSelector: {},
        rules: [{ scope: '*' }],
        clientConfig: { service: { port: 443 } },
      });
      const table = ok(k, ['get', 'validatingwebhookconfigurations', name]);
      expect(table).toMatch(new RegExp(`^NAME\\s+WEBHOOKS\\s+AGE\\n${name}\\s+1\\s+\\S+`));
    });

    test('apply of the same webhook configuration twice keeps generation 1; a change moves it', () => {
      const name = `applied-${tag}`;
      const manifest = webhookYaml(name, 'true');
      expect(ok(k, ['apply', '-f', '-'], manifest)).toContain(`validatingwebhookconfiguration.admissionregistration.k8s.io/${name} created`);
      // kubectl sends a patch again (rules is an atomic list and the live one carries the
      // defaulted scope, so kube answers "configured" too); defaulting makes it a no-op.
      ok(k, ['apply', '-f', '-'], manifest);
      expect(ok(k, ['get', 'validatingwebhookconfiguration', name, '-o', 'jsonpath={.metadata.generation}'])).toBe('1');
      ok(k, ['apply', '-f', '-'], manifest.replace('sideEffects: None', 'sideEffects: NoneOnDryRun'));
      expect(ok(k, ['get', 'validatingwebhookconfiguration', name, '-o', 'jsonpath={.metadata.generation} {.webhooks[0].sideEffects} {.webhooks[0].timeoutSeconds}'])).toBe('2 NoneOnDryRun 10');
    });

    test('a matchCondition that does not compile is refused with kube\'s message', () => {
      const name = `bad-${tag}`;
      const err = fails(k, ['create', '-f', '-'], webhookYaml(name, 'object.metadata.name =='));
      expect(err).toContain(`The ValidatingWebhookConfiguration "${name}" is invalid: webhooks[0].matchConditions[0].expression: Invalid value: "object.metadata.name ==": compilation failed:`);
      expect(k.run(['get', 'validatingwebhookconfiguration', name]).code).not.toBe(0);
    });

    test('apply of a CRD: get crd lists it, Established, by its short name too', () => {
      const plural = `widgets${tag}`;
      ok(k, ['apply', '-f', '-'], crdYaml(plural));
      const table = ok(k, ['get', 'crd']);
      expect(table).toMatch(/^NAME\s+CREATED AT\n/);
      expect(table).toMatch(new RegExp(`\\n${plural}\\.example\\.com\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ`));
      const established = ok(k, ['get', 'customresourcedefinitions', `${plural}.example.com`, '-o', 'jsonpath={.status.conditions[?(@.type=="Established")].status}']);
      expect(established).toBe('True');
      expect(ok(k, ['get', 'crds', `${plural}.example.com`, '-o', 'name'])).toBe(`customresourcedefinition.apiextensions.k8s.io/${plural}.example.com\n`);
    });

    test('auth can-i --list is answered: everything, for an AlwaysAllow server', () => {
      const out = ok(k, ['auth', 'can-i', '--list']);
      expect(out).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
      expect(out).toMatch(/\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/);
      expect(out).toMatch(/\n\s+\[\*\]\s+\[\]\s+\[\*\]\n/);
    });

    test('create token still works, and a TokenReview created from a file accepts the token', () => {
      const ns = 'default';
      const sa = `reviewer-${tag}`;
      ok(k, ['-n', ns, 'create', 'serviceaccount', sa]);
      const token = ok(k, ['-n', ns, 'create', 'token', sa]).trim();
      expect(token.split('.')).toHaveLength(3);
      const review = `{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{"token":${JSON.stringify(token)}}}`;
      const answer = JSON.parse(ok(k, ['create', '-f', '-', '-o', 'json'], review));
      expect(answer.status).toMatchObject({ authenticated: true, user: { username: `system:serviceaccount:${ns}:${sa}`, groups: expect.arrayContaining([`system:serviceaccounts:${ns}`]) } });
      const bad = JSON.parse(ok(k, ['create', '-f', '-', '-o', 'json'], review.replace(token, `${token.slice(0, -4)}AAAA`)));
      expect(bad.status.authenticated).toBeUndefined();
      expect(bad.status.error).toEqual(expect.any(String));
    });
  });
}
