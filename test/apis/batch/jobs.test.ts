// Job rules through the real registry (test/support/store-harness.ts): kube's
// defaults, the generated selector and labels, each validation rule refused with
// kube's cause and its valid form accepted, what an update may change, and the
// status subresource.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { jobs } from '../../../src/apis/batch/v1/jobs.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

type Spec = Record<string, unknown>;
const container = { name: 'c', image: 'busybox' };
const podSpec = (extra: Spec = {}): Spec => ({ restartPolicy: 'Never', containers: [container], ...extra });
const job = (spec: Spec, name = 'j'): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec: { template: { spec: podSpec() }, ...spec } });

describe('defaults and the generated selector', () => {
  test('a minimal Job gets kube defaults, a uid selector and the four labels', async () => {
    const got = await h.create(jobs, job({}));
    expect(got.errors).toEqual([]);
    const uid = got.object!.metadata.uid!;
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'j', 'controller-uid': uid, 'job-name': 'j' };
    expect(got.stored!.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: { metadata: { labels }, spec: { dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30 } },
    });
    expect(got.stored!.metadata.labels).toEqual(labels);
    expect(got.stored!.metadata.generation).toBe(1);
    expect(got.stored!.status).toBeUndefined();
  });

  test('parallelism alone leaves completions unset', async () => {
    const got = await h.create(jobs, job({ parallelism: 3 }));
    expect(got.stored!.spec).toMatchObject({ parallelism: 3 });
    expect((got.stored!.spec as Spec).completions).toBeUndefined();
  });

  test('a pod failure policy defaults pattern status and podReplacementPolicy Failed', async () => {
    const got = await h.create(jobs, job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } }));
    expect(got.errors).toEqual([]);
    expect(got.stored!.spec).toMatchObject({ podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [{ onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } });
  });

  test('backoffLimitPerIndex makes backoffLimit the int32 maximum', async () => {
    const got = await h.create(jobs, job({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1 }));
    expect(got.errors).toEqual([]);
    expect(got.stored!.spec).toMatchObject({ backoffLimit: 2147483647 });
  });

  test('Job labels of its own are kept', async () => {
    const got = await h.create(jobs, { ...job({}), metadata: { name: 'j', namespace: 'ns', labels: { team: 'a' } } });
    expect(got.stored!.metadata.labels).toEqual({ team: 'a' });
  });

  test('manualSelector keeps the client selector and labels', async () => {
    const got = await h.create(jobs, job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: podSpec() } }));
    expect(got.errors).toEqual([]);
    expect((got.stored!.spec as Spec).selector).toEqual({ matchLabels: { app: 'x' } });
    expect(got.stored!.metadata.labels).toEqual({ app: 'x' });
  });

  test('a name that is not a DNS label is accepted with kube\'s warning', async () => {
    const got = await h.create(jobs, job({}, 'a.b'));
    expect(got.errors).toEqual([]);
    expect(got.warnings).toEqual([
      "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
  });
});

const createCases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'negative parallelism', input: job({ parallelism: -1 }), want: ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'negative completions', input: job({ completions: -1 }), want: ['spec.completions: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'negative backoffLimit', input: job({ backoffLimit: -2 }), want: ['spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0'] },
  { name: 'negative activeDeadlineSeconds', input: job({ activeDeadlineSeconds: -5 }), want: ['spec.activeDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0'] },
  { name: 'negative ttlSecondsAfterFinished', input: job({ ttlSecondsAfterFinished: -1 }), want: ['spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0'] },
  { name: 'zero counts are valid', input: job({ parallelism: 0, completions: 0, backoffLimit: 0, activeDeadlineSeconds: 0 }), want: [] },
  { name: 'Indexed needs completions', input: job({ completionMode: 'Indexed', parallelism: 2 }), want: ['spec.completions: Required value: when completion mode is Indexed'] },
  { name: 'Indexed with completions', input: job({ completionMode: 'Indexed', completions: 4 }), want: [] },
  { name: 'unknown completion mode', input: job({ completionMode: 'Sometimes' }), want: ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"'] },
  { name: 'backoffLimitPerIndex needs Indexed', input: job({ backoffLimitPerIndex: 1 }), want: ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode'] },
  { name: 'maxFailedIndexes needs backoffLimitPerIndex', input: job({ completionMode: 'Indexed', completions: 2, maxFailedIndexes: 1 }), want: ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified'] },
  {
    name: 'Indexed pod hostnames must be DNS labels',
    input: job({ completionMode: 'Indexed', completions: 10 }, 'a'.repeat(62)),
    want: [`metadata.name: Invalid value: "${'a'.repeat(62)}": will not able to create pod with invalid DNS label: ${'a'.repeat(62)}-9`],
  },
  { name: 'restartPolicy left out (Always)', input: job({ template: { spec: { containers: [container] } } }), want: ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'] },
  { name: 'restartPolicy OnFailure', input: job({ template: { spec: podSpec({ restartPolicy: 'OnFailure' }) } }), want: [] },
  {
    name: 'pod template through the pod-spec rules',
    input: job({ template: { spec: podSpec({ containers: [{ name: 'C_1', image: 'busybox' }] }) } }),
    want: [
      "spec.template.spec.containers[0].name: Invalid value: \"C_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
  {
    name: 'a conflicting generated label',
    input: job({ template: { metadata: { labels: { 'job-name': 'other' } }, spec: podSpec() } }),
    want: ['spec.template.metadata.labels[job-name]: Invalid value: {"job-name":"other","batch.kubernetes.io/job-name":"j","controller-uid":"uid-3","batch.kubernetes.io/controller-uid":"uid-3"}: j'],
  },
  {
    name: 'a client selector without manualSelector is not auto-generated',
    input: job({ selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: podSpec() } }),
    want: ['spec.selector: Invalid value: {"matchLabels":{"app":"x","batch.kubernetes.io/controller-uid":"uid-3"}}: `selector` not auto-generated'],
  },
  {
    name: 'manual selector must match the template',
    input: job({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'y' } }, spec: podSpec() } }),
    want: ['spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`'],
  },
  {
    name: 'manual selector is required',
    input: job({ manualSelector: true }),
    want: ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`'],
  },
  {
    name: 'podReplacementPolicy must be Failed with a pod failure policy',
    input: job({ podReplacementPolicy: 'TerminatingOrFailed', podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] } }),
    want: ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'],
  },
  {
    name: 'pod failure policy rule needs a requirement and an action',
    input: job({ podFailurePolicy: { rules: [{ action: '' }] } }),
    want: [
      'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ],
  },
  {
    name: 'exit codes: In 0, duplicates, order, container',
    input: job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'x', operator: 'In', values: [0, 3, 3, 1] } }] } }),
    want: [
      'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "x": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered',
    ],
  },
  {
    name: 'pod failure policy needs restartPolicy Never',
    input: job({ podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'NotIn', values: [0] } }] }, template: { spec: podSpec({ restartPolicy: 'OnFailure' }) } }),
    want: ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified'],
  },
  { name: 'successPolicy needs Indexed', input: job({ successPolicy: { rules: [{ succeededCount: 1 }] } }), want: ['spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode'] },
  {
    name: 'successPolicy counts within completions',
    input: job({ completionMode: 'Indexed', completions: 2, successPolicy: { rules: [{ succeededCount: 3 }, {}] } }),
    want: [
      'spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of specified completions)',
      'spec.successPolicy.rules[1]: Required value: at least one of succeededCount or succeededIndexes must be specified',
    ],
  },
  { name: 'managedBy must be a domain-prefixed path', input: job({ managedBy: 'kueue' }), want: ['spec.managedBy: Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo")'] },
  { name: 'managedBy valid', input: job({ managedBy: 'kueue.x-k8s.io/manager' }), want: [] },
];

describe('create validation', () => {
  for (const c of createCases) {
    test(c.name, async () => {
      const got = await h.create(jobs, c.input);
      expect(got.errors).toEqual(c.want);
      if (c.want.length > 0) expect(got.stored).toBeUndefined();
      else expect(got.stored).toEqual(got.object);
    });
  }
});

describe('updates', () => {
  async function created(spec: Spec = {}): Promise<KubeObject> {
    const got = await h.create(jobs, job(spec));
    expect(got.errors).toEqual([]);
    return got.object!;
  }
  const withSpec = (obj: KubeObject, change: (spec: Spec) => void): KubeObject => {
    const next = structuredClone(obj);
    change(next.spec as Spec);
    return next;
  };

  test('parallelism may change and bumps generation; metadata-only changes do not', async () => {
    const obj = await created();
    const scaled = await h.update(jobs, withSpec(obj, (s) => (s.parallelism = 3)));
    expect(scaled.errors).toEqual([]);
    expect(scaled.stored!.metadata.generation).toBe(2);
    const relabelled = await h.update(jobs, { ...scaled.stored!, metadata: { ...scaled.stored!.metadata, annotations: { a: 'b' } } });
    expect(relabelled.errors).toEqual([]);
    expect(relabelled.stored!.metadata.generation).toBe(2);
  });

  test('status is not written by a main-resource update', async () => {
    const obj = await created();
    const got = await h.update(jobs, { ...obj, status: { succeeded: 1 } });
    expect(got.errors).toEqual([]);
    expect(got.stored!.status).toBeUndefined();
  });

  const immutable: { name: string; change: (s: Spec) => void; want: RegExp[] }[] = [
    { name: 'completions (NonIndexed)', change: (s) => (s.completions = 5), want: [/^spec\.completions: Invalid value: 5: field is immutable$/] },
    { name: 'completionMode', change: (s) => (s.completionMode = 'Indexed'), want: [/^spec\.completionMode: Invalid value: "Indexed": field is immutable$/] },
    { name: 'selector', change: (s) => (s.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': 'other' } }), want: [/^spec\.selector: Invalid value: .*: `selector` not auto-generated$/, /^spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`$/, /^spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`$/, /^spec\.selector: Invalid value: .*: field is immutable$/] },
    { name: 'template image', change: (s) => ((s.template as { spec: { containers: Spec[] } }).spec.containers[0]!.image = 'nginx'), want: [/^spec\.template: Invalid value: .*: field is immutable$/] },
  ];
  for (const c of immutable) {
    test(`${c.name} is immutable`, async () => {
      const obj = await created();
      const got = await h.update(jobs, withSpec(obj, c.change));
      expect(got.errors).toHaveLength(c.want.length);
      c.want.forEach((re, i) => expect(got.errors[i]).toMatch(re));
      expect(got.stored).toEqual(obj);
    });
  }

  test('kube reports a bad spec field twice on update (ValidateJob and ValidateJobSpecUpdate)', async () => {
    const obj = await created();
    const got = await h.update(jobs, withSpec(obj, (s) => (s.parallelism = -1)));
    expect(got.errors).toEqual(['spec.parallelism: Invalid value: -1: must be greater than or equal to 0', 'spec.parallelism: Invalid value: -1: must be greater than or equal to 0']);
  });

  test('an Indexed Job scales completions together with parallelism only', async () => {
    const obj = await created({ completionMode: 'Indexed', completions: 2, parallelism: 2 });
    const alone = await h.update(jobs, withSpec(obj, (s) => (s.completions = 3)));
    expect(alone.errors).toEqual(['spec.completions: Invalid value: 3: can only be modified in tandem with spec.parallelism']);
    const tandem = await h.update(jobs, withSpec(obj, (s) => ((s.completions = 3), (s.parallelism = 3))));
    expect(tandem.errors).toEqual([]);
  });

  test('a suspended Job that never started may change its node selector, not its image', async () => {
    const obj = await created({ suspend: true });
    const scheduling = await h.update(jobs, withSpec(obj, (s) => ((s.template as { spec: Spec }).spec.nodeSelector = { zone: 'a' })));
    expect(scheduling.errors).toEqual([]);
    const image = await h.update(jobs, withSpec(scheduling.stored!, (s) => ((s.template as { spec: { containers: Spec[] } }).spec.containers[0]!.image = 'nginx')));
    expect(image.errors).toHaveLength(1);
    expect(image.errors[0]).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/);
  });

  test('a running Job may not change its node selector', async () => {
    const obj = await created();
    const got = await h.update(jobs, withSpec(obj, (s) => ((s.template as { spec: Spec }).spec.nodeSelector = { zone: 'a' })));
    expect(got.errors).toHaveLength(1);
  });
});

describe('status subresource', () => {
  test('a status write keeps the spec and refuses negative counters', async () => {
    const obj = (await h.create(jobs, job({}))).object!;
    const good = await h.updateStatus(jobs, { ...obj, spec: { ...(obj.spec as Spec), parallelism: 9 }, status: { active: 1, startTime: '2026-01-02T03:04:05Z' } });
    expect(good.errors).toEqual([]);
    expect(good.stored!.status).toEqual({ active: 1, startTime: '2026-01-02T03:04:05Z' });
    expect((good.stored!.spec as Spec).parallelism).toBe(1);
    const bad = await h.updateStatus(jobs, { ...good.stored!, status: { active: -1, failed: -2 } });
    expect(bad.errors).toEqual(['status.active: Invalid value: -1: must be greater than or equal to 0', 'status.failed: Invalid value: -2: must be greater than or equal to 0']);
    expect(bad.stored!.status).toEqual(good.stored!.status);
    const uncounted = await h.updateStatus(jobs, { ...good.stored!, status: { active: 1, uncountedTerminatedPods: { succeeded: ['p1', ''], failed: ['p1'] } } });
    expect(uncounted.errors).toEqual(['status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty', 'status.uncountedTerminatedPods.failed[0]: Duplicate value: "p1"']);
  });
});

describe('hostile and missing input is data', () => {
  const rows: { name: string; input: KubeObject; want: string[] }[] = [
    {
      name: 'no spec at all',
      input: { metadata: { name: 'j', namespace: 'ns' } },
      want: ['spec.template.spec.containers: Required value', 'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    },
    {
      // A selector that does not convert is not matched against the template (kube's LabelSelectorAsSelector error).
      name: 'prototype-named labels and selector keys',
      input: JSON.parse(
        '{"metadata":{"name":"j","namespace":"ns"},"spec":{"manualSelector":true,"selector":{"matchLabels":{"constructor":"x","__proto__":"y"}},' +
          '"template":{"metadata":{"labels":{"constructor":"x"}},"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}}',
      ) as KubeObject,
      want: [
        'spec.selector.matchLabels: Invalid value: "__proto__": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      ],
    },
  ];
  for (const r of rows) {
    test(r.name, async () => {
      const got = await h.create(jobs, r.input);
      expect(got.errors).toEqual(r.want);
      expect(got.stored).toBeUndefined();
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });
  }
});
