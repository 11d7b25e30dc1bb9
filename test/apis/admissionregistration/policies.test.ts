// Admission policies and bindings through the real store: v1 defaults, and one
// row per validation rule (CEL expressions compiled on write).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  mutatingAdmissionPolicies,
  mutatingAdmissionPolicyBindings,
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
} from '../../../src/apis/admissionregistration/v1/index.js';
import type { ResourceDefinition } from '../../../src/registry/define-resource.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeAll(async () => {
  h = await createStoreHarness();
});
afterAll(() => h.close());

const rules = [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];
const matchConstraints = { resourceRules: rules };
let n = 0;
const obj = (def: ResourceDefinition, spec: Record<string, unknown>) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: def.kind, metadata: { name: `p${++n}` }, spec });

describe('defaults', () => {
  test('ValidatingAdmissionPolicy: failurePolicy Fail, matchConstraints selectors, matchPolicy, rule scope; status reset', async () => {
    const out = await h.create(validatingAdmissionPolicies, { ...obj(validatingAdmissionPolicies, { matchConstraints, validations: [{ expression: 'true' }] }), status: { observedGeneration: 7 } });
    expect(out.errors).toEqual([]);
    expect(out.stored?.spec).toEqual({
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ ...rules[0], scope: '*' }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' },
      validations: [{ expression: 'true' }],
    });
    expect(out.stored?.status).toBeUndefined();
    expect(out.stored?.metadata.generation).toBe(1);
  });

  test('binding: paramRef parameterNotFoundAction Deny', async () => {
    const out = await h.create(validatingAdmissionPolicyBindings, obj(validatingAdmissionPolicyBindings, { policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'x' } }));
    expect(out.errors).toEqual([]);
    expect(out.stored?.spec).toEqual({ policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } });
  });
});

describe('validation', () => {
  const jsonPatch = { patchType: 'JSONPatch', jsonPatch: { expression: '[]' } };
  const cases: { name: string; def: ResourceDefinition; spec: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'VAP valid: validations, variables, audit annotations, messageExpression',
      def: validatingAdmissionPolicies,
      spec: {
        matchConstraints,
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        variables: [{ name: 'replicas', expression: 'object.spec.replicas' }],
        validations: [{ expression: 'variables.replicas <= int(params.data.max)', messageExpression: "'too many: ' + string(variables.replicas)", reason: 'Forbidden' }],
        auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      },
      want: [],
    },
    { name: 'VAP without matchConstraints', def: validatingAdmissionPolicies, spec: { validations: [{ expression: 'true' }] }, want: ['spec.matchConstraints.resourceRules: Required value'] },
    { name: 'VAP without validations', def: validatingAdmissionPolicies, spec: { matchConstraints }, want: ['spec.validations: Required value: validations or auditAnnotations must contain at least one item'] },
    { name: 'VAP validation without expression', def: validatingAdmissionPolicies, spec: { matchConstraints, validations: [{ message: 'm' }] }, want: ['spec.validations[0].expression: Required value'] },
    {
      name: 'VAP validation that does not compile',
      def: validatingAdmissionPolicies,
      spec: { matchConstraints, validations: [{ expression: 'object.spec.replicas >' }] },
      want: ['spec.validations[0].expression: Invalid value: "object.spec.replicas >": compilation failed: Unexpected token: EOF (at 1:23)'],
    },
    { name: 'VAP validation not a bool', def: validatingAdmissionPolicies, spec: { matchConstraints, validations: [{ expression: '1 + 1' }] }, want: ['spec.validations[0].expression: Invalid value: "1 + 1": must evaluate to bool'] },
    { name: 'VAP messageExpression not a string', def: validatingAdmissionPolicies, spec: { matchConstraints, validations: [{ expression: 'true', messageExpression: '1' }] }, want: ['spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string'] },
    { name: 'VAP message with a line break', def: validatingAdmissionPolicies, spec: { matchConstraints, validations: [{ expression: 'true', message: 'a\nb' }] }, want: ['spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks'] },
    {
      name: 'VAP unknown reason',
      def: validatingAdmissionPolicies,
      spec: { matchConstraints, validations: [{ expression: 'true', reason: 'Teapot' }] },
      want: ['spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"'],
    },
    { name: 'VAP bad failurePolicy', def: validatingAdmissionPolicies, spec: { matchConstraints, failurePolicy: 'Never', validations: [{ expression: 'true' }] }, want: ['spec.failurePolicy: Unsupported value: "Never": supported values: "Ignore", "Fail"'] },
    { name: 'VAP variable name not an identifier', def: validatingAdmissionPolicies, spec: { matchConstraints, variables: [{ name: 'a-b', expression: '1' }], validations: [{ expression: 'true' }] }, want: ['spec.variables[0].name: Invalid value: "a-b": name is not a valid CEL identifier'] },
    { name: 'VAP paramKind without kind', def: validatingAdmissionPolicies, spec: { matchConstraints, paramKind: { apiVersion: 'v1' }, validations: [{ expression: 'true' }] }, want: ['spec.paramKind.kind: Required value'] },
    { name: 'VAP rule without operations', def: validatingAdmissionPolicies, spec: { matchConstraints: { resourceRules: [{ ...rules[0], operations: [] }] }, validations: [{ expression: 'true' }] }, want: ['spec.matchConstraints.resourceRules[0].operations: Required value'] },
    { name: 'binding valid: Warn and Audit', def: validatingAdmissionPolicyBindings, spec: { policyName: 'p', validationActions: ['Warn', 'Audit'] }, want: [] },
    { name: 'binding without policyName', def: validatingAdmissionPolicyBindings, spec: { validationActions: ['Deny'] }, want: ['spec.policyName: Required value'] },
    { name: 'binding without validationActions', def: validatingAdmissionPolicyBindings, spec: { policyName: 'p' }, want: ['spec.validationActions: Required value: at least one validation action is required'] },
    { name: 'binding unknown action', def: validatingAdmissionPolicyBindings, spec: { policyName: 'p', validationActions: ['Block'] }, want: ['spec.validationActions[0]: Unsupported value: "Block": supported values: "Deny", "Warn", "Audit"'] },
    {
      name: 'binding Deny with Warn',
      def: validatingAdmissionPolicyBindings,
      spec: { policyName: 'p', validationActions: ['Deny', 'Warn'] },
      want: ['spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'],
    },
    { name: 'binding paramRef with name and selector', def: validatingAdmissionPolicyBindings, spec: { policyName: 'p', validationActions: ['Deny'], paramRef: { name: 'x', selector: {} } }, want: ['spec.paramRef.name: Forbidden: name and selector are mutually exclusive'] },
    { name: 'MAP valid', def: mutatingAdmissionPolicies, spec: { matchConstraints, reinvocationPolicy: 'IfNeeded', mutations: [jsonPatch] }, want: [] },
    { name: 'MAP without mutations', def: mutatingAdmissionPolicies, spec: { matchConstraints, reinvocationPolicy: 'Never' }, want: ['spec.mutations: Required value: mutations must contain at least one item'] },
    { name: 'MAP without reinvocationPolicy', def: mutatingAdmissionPolicies, spec: { matchConstraints, mutations: [jsonPatch] }, want: ['spec.reinvocationPolicy: Required value'] },
    { name: 'MAP mutation without patchType', def: mutatingAdmissionPolicies, spec: { matchConstraints, reinvocationPolicy: 'Never', mutations: [{ jsonPatch: { expression: '[]' } }] }, want: ['spec.mutations[0].patchType: Required value'] },
    { name: 'MAP ApplyConfiguration without expression', def: mutatingAdmissionPolicies, spec: { matchConstraints, reinvocationPolicy: 'Never', mutations: [{ patchType: 'ApplyConfiguration' }] }, want: ['spec.mutations[0].applyConfiguration.expression: Required value'] },
    {
      name: 'MAP matchCondition that does not compile',
      def: mutatingAdmissionPolicies,
      spec: { matchConstraints, reinvocationPolicy: 'Never', mutations: [jsonPatch], matchConditions: [{ name: 'm', expression: 'nope' }] },
      want: ['spec.matchConditions[0].expression: Invalid value: "nope": compilation failed: Unknown variable: nope (at 1:1)'],
    },
    { name: 'MAP binding valid', def: mutatingAdmissionPolicyBindings, spec: { policyName: 'p' }, want: [] },
    { name: 'MAP binding without policyName', def: mutatingAdmissionPolicyBindings, spec: {}, want: ['spec.policyName: Required value'] },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const out = await h.create(c.def, obj(c.def, c.spec));
      expect(out.errors).toEqual(c.want);
      expect(out.stored === undefined).toBe(c.want.length > 0);
    });
  }
});

test('ValidatingAdmissionPolicy status is written through /status only', async () => {
  const created = await h.create(validatingAdmissionPolicies, obj(validatingAdmissionPolicies, { matchConstraints, validations: [{ expression: 'true' }] }));
  const status = { observedGeneration: 1, typeChecking: { expressionWarnings: [] } };
  const viaMain = await h.update(validatingAdmissionPolicies, { ...created.stored!, status });
  expect(viaMain.stored?.status).toBeUndefined();
  const viaStatus = await h.updateStatus(validatingAdmissionPolicies, { ...viaMain.stored!, status });
  expect(viaStatus.errors).toEqual([]);
  expect(viaStatus.stored?.status).toEqual(status);
});
