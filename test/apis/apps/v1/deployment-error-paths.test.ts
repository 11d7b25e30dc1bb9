// Errors deep in a Deployment, where validation makes a path (and reads a
// message) only once a check fails: every such error must still come out with
// kube's field, text and order. The expected lists were taken from the
// validation as it stood before paths were made lazily.
import { describe, expect, test } from 'vitest';
import { defaultDeployment, validateDeployment } from '../../../../src/apis/apps/v1/deployments.js';
import { validateObjectMeta } from '../../../../src/registry/validation/object-meta.js';
import type { KubeObject } from '../../../../src/schema/object.js';

const QNAME = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const PERCENT = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const DNS_LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const QUALIFIED = `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`;

const container = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name, image: 'nginx', ...extra });

/** A Deployment wrong in many places; `withBadExpression` also gives it a selector that does not convert. */
function badDeployment(withBadExpression: boolean): KubeObject {
  const expressions = withBadExpression ? { matchExpressions: [{ key: 'a b', operator: 'In', values: ['ok', 'not ok'] }] } : {};
  const d: KubeObject = {
    metadata: { name: 'web', namespace: 'ns', labels: { app: 'web' }, annotations: { 'Example.com/Key': 'x', 'a b': 'y' } },
    spec: {
      replicas: -1,
      selector: { matchLabels: { app: 'web', tier: 'front' }, ...expressions },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '101%', maxSurge: 'x' } },
      progressDeadlineSeconds: 5,
      minReadySeconds: 10,
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'Bad/Key/x': 'v' } },
        spec: {
          initContainers: [container('Init', { imagePullPolicy: 'Sometimes' })],
          containers: [
            container('web', { ports: [{ name: 'http', containerPort: 80 }, { name: 'http', containerPort: 0, protocol: 'XTP' }], env: [{ name: 'A=B' }, { name: '' }] }),
            container('web', { image: ' nginx ', volumeMounts: [{ name: 'nope', mountPath: '' }], resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }),
          ],
          volumes: [{ name: 'v', emptyDir: {}, secret: {}, configMap: {} }, { name: 'v', emptyDir: {} }],
          ephemeralContainers: [{ name: 'e' }],
          restartPolicy: 'Never',
        },
      },
    },
  };
  defaultDeployment(d);
  return d;
}

function errorsOf(d: KubeObject): string[][] {
  const errs = [...validateObjectMeta(d, { namespaced: true, nameValidation: 'subdomain', isCreate: true }), ...validateDeployment(d)];
  return errs.map((e) => [e.field, e.message]);
}

describe('Deployment errors made on demand', () => {
  test('a selector that does not convert stops before the template, as in kube', () => {
    expect(errorsOf(badDeployment(true))).toEqual([
      ["metadata.annotations", `metadata.annotations: Invalid value: "a b": ${QNAME}`],
      ["spec.replicas", 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
      ["spec.selector.matchExpressions[0].key", `spec.selector.matchExpressions[0].key: Invalid value: "a b": ${QNAME}`],
      ["spec.selector.matchExpressions[0].values[1]", `spec.selector.matchExpressions[0].values[1]: Invalid value: "not ok": ${LABEL_VALUE}`],
      ["spec.selector", 'spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"front"},"matchExpressions":[{"key":"a b","operator":"In","values":["ok","not ok"]}]}: invalid label selector'],
      ["spec.strategy.rollingUpdate.maxSurge", `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: ${PERCENT}`],
      ["spec.strategy.rollingUpdate.maxUnavailable", 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
      ["spec.progressDeadlineSeconds", 'spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds'],
    ]);
  });

  test('errors in the template: volumes, init containers, ports, env, mounts, resources, duplicates, in kube order', () => {
    expect(errorsOf(badDeployment(false))).toEqual([
      ["metadata.annotations", `metadata.annotations: Invalid value: "a b": ${QNAME}`],
      ["spec.replicas", 'spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
      ["spec.template.metadata.labels", 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
      ["spec.template.annotations", `spec.template.annotations: Invalid value: "Bad/Key/x": ${QUALIFIED}`],
      ["spec.template.spec.volumes[0].secret", 'spec.template.spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type'],
      ["spec.template.spec.volumes[0].configMap", 'spec.template.spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type'],
      ["spec.template.spec.volumes[1].name", 'spec.template.spec.volumes[1].name: Duplicate value: "v"'],
      ["spec.template.spec.initContainers[0].name", `spec.template.spec.initContainers[0].name: Invalid value: "Init": ${DNS_LABEL}`],
      ["spec.template.spec.initContainers[0].imagePullPolicy", 'spec.template.spec.initContainers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"'],
      ["spec.template.spec.containers[0].ports[1].name", 'spec.template.spec.containers[0].ports[1].name: Duplicate value: "http"'],
      ["spec.template.spec.containers[0].ports[1].containerPort", 'spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive'],
      ["spec.template.spec.containers[0].ports[1].protocol", 'spec.template.spec.containers[0].ports[1].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"'],
      ["spec.template.spec.containers[0].env[0].name", "spec.template.spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"],
      ["spec.template.spec.containers[0].env[1].name", 'spec.template.spec.containers[0].env[1].name: Required value'],
      // " nginx " passes: only a Pod's own spec refuses surrounding whitespace (validateContainersOnlyForPod).
      ["spec.template.spec.containers[1].volumeMounts[0].name", 'spec.template.spec.containers[1].volumeMounts[0].name: Not found: "nope"'],
      ["spec.template.spec.containers[1].volumeMounts[0].mountPath", 'spec.template.spec.containers[1].volumeMounts[0].mountPath: Required value'],
      ["spec.template.spec.containers[1].resources.requests[cpu]", 'spec.template.spec.containers[1].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1'],
      ["spec.template.spec.containers[1].name", 'spec.template.spec.containers[1].name: Duplicate value: "web"'],
      ['spec.template.spec.ephemeralContainers[0].image', 'spec.template.spec.ephemeralContainers[0].image: Required value'],
      ["spec.template.spec.ephemeralContainers", 'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template'],
      ["spec.template.spec.restartPolicy", 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
      ["spec.strategy.rollingUpdate.maxSurge", `spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: ${PERCENT}`],
      ["spec.strategy.rollingUpdate.maxUnavailable", 'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
      ["spec.progressDeadlineSeconds", 'spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds'],
    ]);
  });

  test('the bench Deployment shape is valid and says nothing', () => {
    const d = badDeployment(false);
    const spec = d.spec as Record<string, unknown>;
    spec.replicas = 3;
    spec.minReadySeconds = 0;
    spec.selector = { matchLabels: { app: 'web' } };
    spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
    spec.template = { metadata: { labels: { app: 'web' } }, spec: { containers: [container('web', { ports: [{ name: 'http', containerPort: 80 }] })] } };
    d.metadata.annotations = { 'Example.com/Key': 'x' };
    defaultDeployment(d);
    expect(errorsOf(d)).toEqual([]);
  });
});
