// Every rule of kube's ValidateAuthorizationConfiguration / ValidateWebhookConfiguration
// (auth/authz/config/validation.ts) with its exact message, kube's aggregate of
// several, and kube-apiserver's own checks after them (load.ts): authorizer
// names, the types a reload must keep, and InClusterConfig.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAuthorizationConfiguration, type ParseAuthorizationConfigurationOptions } from '../../../../src/auth/authz/config/load.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-authz-validation-'));
const kubeconfig = join(dir, 'webhook.kubeconfig');
writeFileSync(kubeconfig, 'current-context: x\n');

type Json = Record<string, unknown>;
const GOOD_WEBHOOK: Json = { timeout: '3s', subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig } };
const webhook = (name: string, overrides: Json = {}): Json => ({ type: 'Webhook', name, webhook: { ...GOOD_WEBHOOK, ...overrides } });
const file = (...authorizers: Json[]) => JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AuthorizationConfiguration', authorizers });
const DNS = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: { name: string; text: string; opts?: ParseAuthorizationConfigurationOptions; want: string | undefined }[] = [
  { name: 'a valid chain: Node, RBAC and repeated webhooks', text: file({ type: 'Node', name: 'node' }, { type: 'RBAC', name: 'rbac' }, webhook('a'), webhook('b.example.com')), want: undefined },
  { name: 'no authorizers', text: file(), want: 'authorizers: Required value: at least one authorization mode must be defined' },
  { name: 'a type is required', text: file({ name: 'x' }), want: 'authorizers[0].type: Required value' },
  { name: 'an unknown type', text: file({ type: 'Foo', name: 'foo' }), want: 'authorizers[0].type: Unsupported value: "Foo": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"' },
  { name: 'RBAC twice', text: file({ type: 'RBAC', name: 'rbac' }, { type: 'RBAC', name: 'rbac2' }), want: 'authorizers[1].type: Duplicate value: "RBAC"' },
  { name: 'Node twice', text: file({ type: 'Node', name: 'node' }, { type: 'Node', name: 'node' }), want: 'authorizers[1].type: Duplicate value: "Node"' },
  { name: 'a name is required', text: file(webhook('')), want: 'authorizers[0].name: Required value' },
  { name: 'names are unique', text: file(webhook('w'), webhook('w')), want: 'authorizers[1].name: Duplicate value: "w"' },
  { name: 'names are DNS-1123 subdomains', text: file(webhook('Bad_Name')), want: `authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid: ${DNS}` },
  { name: 'webhook is required for type Webhook', text: file({ type: 'Webhook', name: 'w' }), want: 'authorizers[0].webhook: Required value: required when type=Webhook' },
  { name: 'webhook is forbidden for other types', text: file({ type: 'RBAC', name: 'rbac', webhook: GOOD_WEBHOOK }), want: 'authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook' },
  { name: 'a timeout is required (under the authorizer\'s path, as kube reports it)', text: file(webhook('w', { timeout: '0s' })), want: 'authorizers[0].timeout: Required value' },
  { name: 'a timeout above 30s', text: file(webhook('w', { timeout: '1m' })), want: 'authorizers[0].timeout: Invalid value: "1m0s": must be > 0s and <= 30s' },
  { name: 'a negative timeout', text: file(webhook('w', { timeout: '-1s' })), want: 'authorizers[0].timeout: Invalid value: "-1s": must be > 0s and <= 30s' },
  { name: 'a negative authorizedTTL', text: file(webhook('w', { authorizedTTL: '-1s' })), want: 'authorizers[0].authorizedTTL: Invalid value: "-1s": must be > 0s' },
  { name: 'a negative unauthorizedTTL', text: file(webhook('w', { unauthorizedTTL: '-90s' })), want: 'authorizers[0].unauthorizedTTL: Invalid value: "-1m30s": must be > 0s' },
  { name: 'subjectAccessReviewVersion is required', text: file(webhook('w', { subjectAccessReviewVersion: '' })), want: 'authorizers[0].subjectAccessReviewVersion: Required value' },
  { name: 'subjectAccessReviewVersion is v1 or v1beta1', text: file(webhook('w', { subjectAccessReviewVersion: 'v2' })), want: 'authorizers[0].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"' },
  {
    name: 'matchConditionSubjectAccessReviewVersion is required with match conditions',
    text: file(webhook('w', { matchConditions: [{ expression: 'true' }] })),
    want: 'authorizers[0].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
  },
  { name: 'matchConditionSubjectAccessReviewVersion is v1', text: file(webhook('w', { matchConditionSubjectAccessReviewVersion: 'v1beta1' })), want: 'authorizers[0].matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"' },
  { name: 'failurePolicy is required', text: file(webhook('w', { failurePolicy: '' })), want: 'authorizers[0].failurePolicy: Required value' },
  { name: 'failurePolicy is NoOpinion or Deny', text: file(webhook('w', { failurePolicy: 'Allow' })), want: 'authorizers[0].failurePolicy: Unsupported value: "Allow": supported values: "NoOpinion", "Deny"' },
  { name: 'connectionInfo.type is required', text: file(webhook('w', { connectionInfo: {} })), want: 'authorizers[0].connectionInfo.type: Required value' },
  {
    name: 'connectionInfo.type is InClusterConfig or KubeConfigFile',
    text: file(webhook('w', { connectionInfo: { type: 'Magic' } })),
    want: 'authorizers[0].connectionInfo.type: Unsupported value: apiserver.WebhookConnectionInfo{Type:"Magic", KubeConfigFile:(*string)(nil)}: supported values: "InClusterConfig", "KubeConfigFile"',
  },
  { name: 'InClusterConfig takes no file', text: file(webhook('w', { connectionInfo: { type: 'InClusterConfig', kubeConfigFile: kubeconfig } })), want: `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${kubeconfig}": can only be set when type=KubeConfigFile` },
  { name: 'KubeConfigFile needs a file', text: file(webhook('w', { connectionInfo: { type: 'KubeConfigFile' } })), want: 'authorizers[0].connectionInfo.kubeConfigFile: Required value' },
  { name: 'an empty file name is missing too', text: file(webhook('w', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '' } })), want: 'authorizers[0].connectionInfo.kubeConfigFile: Required value' },
  { name: 'the file path is absolute', text: file(webhook('w', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'webhook.kubeconfig' } })), want: 'authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "webhook.kubeconfig": must be an absolute path' },
  {
    name: 'the file exists',
    text: file(webhook('w', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: join(dir, 'nope') } })),
    want: `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${join(dir, 'nope')}": error loading file: stat ${join(dir, 'nope')}: no such file or directory`,
  },
  { name: 'the file is a regular file', text: file(webhook('w', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: dir } })), want: `authorizers[0].connectionInfo.kubeConfigFile: Invalid value: "${dir}": must be a regular file` },
  {
    name: 'match conditions compile',
    text: file(webhook('w', { matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: 'request.user' }, { expression: '' }] })),
    want: '[authorizers[0].matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string, authorizers[0].matchConditions[1].expression: Required value]',
  },
  { name: 'several problems: kube\'s aggregate in brackets', text: file(webhook('w', { timeout: '0s', failurePolicy: '' })), want: '[authorizers[0].timeout: Required value, authorizers[0].failurePolicy: Required value]' },
  { name: 'kube-apiserver: a non-Webhook authorizer is named after its type', text: file({ type: 'RBAC', name: 'my-rbac' }, { type: 'AlwaysDeny', name: 'deny' }), want: '[expected name rbac for authorizer RBAC instead of my-rbac, expected name alwaysdeny for authorizer AlwaysDeny instead of deny]' },
  { name: 'kube-apiserver: a reload keeps the start\'s non-Webhook types', text: file({ type: 'RBAC', name: 'rbac' }, webhook('w')), opts: { requireNonWebhookTypes: ['RBAC', 'Node', 'ABAC'] }, want: 'missing required types: [ABAC Node]' },
  { name: 'kube-apiserver: InClusterConfig would be the server itself', text: file(webhook('w', { connectionInfo: { type: 'InClusterConfig' } })), want: 'authorizer "w": connectionInfo type InClusterConfig is not allowed for kube-apiserver' },
];

describe('validation', () => {
  for (const c of cases) {
    test(c.name, () => {
      let got: string | undefined;
      try {
        parseAuthorizationConfiguration(c.text, c.opts);
      } catch (err) {
        got = (err as Error).message;
      }
      expect(got).toBe(c.want);
    });
  }
});
