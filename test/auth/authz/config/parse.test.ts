// Decoding the --authorization-config file (auth/authz/config/authorization-config.ts,
// load.ts): the versions kube 1.36 accepts, the defaults it fills, and the exact
// error for each way a file fails to decode.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AuthorizationConfiguration } from '../../../../src/auth/authz/config/authorization-config.js';
import { parseAuthorizationConfiguration } from '../../../../src/auth/authz/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-authz-config-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'current-context: x\n');

const WEBHOOK_YAML = `
- type: Webhook
  name: policy.example.com
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: Deny
    connectionInfo:
      type: KubeConfigFile
      kubeConfigFile: ${kubeconfig}
    matchConditions:
    - expression: has(request.resourceAttributes)`;

const yamlConfig = (apiVersion: string) => `apiVersion: ${apiVersion}\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Node\n  name: node${WEBHOOK_YAML}\n- type: RBAC\n  name: rbac\n`;

const DEFAULTED: AuthorizationConfiguration = {
  authorizers: [
    { type: 'Node', name: 'node' },
    {
      type: 'Webhook',
      name: 'policy.example.com',
      webhook: {
        authorizedTTL: 300_000,
        cacheAuthorizedRequests: true,
        unauthorizedTTL: 30_000,
        cacheUnauthorizedRequests: true,
        timeout: 3000,
        subjectAccessReviewVersion: 'v1',
        matchConditionSubjectAccessReviewVersion: 'v1',
        failurePolicy: 'Deny',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig },
        matchConditions: [{ expression: 'has(request.resourceAttributes)' }],
      },
    },
    { type: 'RBAC', name: 'rbac' },
  ],
};

const webhookJson = (webhook: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers: [{ type: 'Webhook', name: 'w', webhook: { subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig }, ...webhook } }] });

describe('decoding', () => {
  const cases: { name: string; text: string; want: AuthorizationConfiguration | Error }[] = [
    { name: 'v1 YAML, with the defaults filled', text: yamlConfig('apiserver.config.k8s.io/v1'), want: DEFAULTED },
    { name: 'v1beta1 is still accepted', text: yamlConfig('apiserver.config.k8s.io/v1beta1'), want: DEFAULTED },
    { name: 'v1alpha1 is still accepted', text: yamlConfig('apiserver.config.k8s.io/v1alpha1'), want: DEFAULTED },
    {
      name: 'JSON; explicit TTLs and caches kept',
      text: webhookJson({ timeout: '30s', authorizedTTL: '1h30m', unauthorizedTTL: '250ms', cacheAuthorizedRequests: false }),
      want: {
        authorizers: [
          {
            type: 'Webhook',
            name: 'w',
            webhook: {
              authorizedTTL: 5_400_000, cacheAuthorizedRequests: false, unauthorizedTTL: 250, cacheUnauthorizedRequests: true, timeout: 30_000, subjectAccessReviewVersion: 'v1',
              matchConditionSubjectAccessReviewVersion: '', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig }, matchConditions: [],
            },
          },
        ],
      },
    },
    { name: 'an empty file is kube\'s empty configuration, refused', text: '', want: new Error('authorizers: Required value: at least one authorization mode must be defined') },
    { name: 'no kind', text: '{"apiVersion":"apiserver.config.k8s.io/v1"}', want: new Error('failed to load AuthorizationConfiguration from file: Object \'Kind\' is missing in \'{"apiVersion":"apiserver.config.k8s.io/v1"}\'') },
    { name: 'no apiVersion', text: 'kind: AuthorizationConfiguration', want: new Error('failed to load AuthorizationConfiguration from file: Object \'apiVersion\' is missing in \'{"kind":"AuthorizationConfiguration"}\'') },
    {
      name: 'a version kube does not register',
      text: 'apiVersion: apiserver.config.k8s.io/v2\nkind: AuthorizationConfiguration',
      want: new Error('failed to load AuthorizationConfiguration from file: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "k8s.io/apiserver/pkg/apis/apiserver/load/load.go:32"'),
    },
    { name: 'another kind of the group', text: 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthenticationConfiguration', want: new Error('failed to load AuthorizationConfiguration from file: expected AuthorizationConfiguration, got *apiserver.AuthenticationConfiguration') },
    {
      name: 'not an object',
      text: '- a',
      want: new Error('failed to load AuthorizationConfiguration from file: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'),
    },
    { name: 'an unknown field (strict)', text: webhookJson({ timeout: '3s', retries: 3 }), want: new Error('failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].webhook.retries"') },
    { name: 'a list of the wrong type', text: 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers: all', want: new Error('failed to load AuthorizationConfiguration from file: json: cannot unmarshal string into Go struct field AuthorizationConfiguration.authorizers of type []v1beta1.AuthorizerConfiguration') },
    { name: 'a bool of the wrong type', text: webhookJson({ timeout: '3s', cacheAuthorizedRequests: 'yes' }), want: new Error('failed to load AuthorizationConfiguration from file: json: cannot unmarshal string into Go struct field WebhookConfiguration.authorizers.webhook.cacheAuthorizedRequests of type bool') },
    { name: 'a duration that is a number', text: webhookJson({ timeout: 3 }), want: new Error('failed to load AuthorizationConfiguration from file: json: cannot unmarshal number into Go struct field WebhookConfiguration.authorizers.webhook.timeout of type string') },
    { name: 'a duration Go cannot parse', text: webhookJson({ timeout: 'abc' }), want: new Error('failed to load AuthorizationConfiguration from file: time: invalid duration "abc"') },
    { name: 'a null duration is Go\'s empty string', text: webhookJson({ timeout: null }), want: new Error('failed to load AuthorizationConfiguration from file: time: invalid duration ""') },
    { name: '__proto__ is an unknown field, nothing more', text: webhookJson({ timeout: '3s', ['__proto__']: { polluted: true } }), want: new Error('failed to load AuthorizationConfiguration from file: strict decoding error: unknown field "authorizers[0].webhook.__proto__"') },
  ];
  for (const c of cases) {
    test(c.name, () => {
      if (c.want instanceof Error) expect(() => parseAuthorizationConfiguration(c.text)).toThrow(c.want.message);
      else expect(parseAuthorizationConfiguration(c.text)).toEqual(c.want);
    });
  }
  test('nothing reaches Object.prototype', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
