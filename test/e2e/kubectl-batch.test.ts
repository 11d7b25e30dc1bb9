// batch/v1 and autoscaling/v2 with real kubectl (1.27 and 1.33): `create job`,
// `create cronjob`, `create job --from=cronjob/…`, the columns of
// `get jobs,cronjobs` and of an HPA applied from YAML, a refused schedule, and
// `explain cronjob.spec`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { kubectl, kubectlBinaries, ok, type Kubectl } from './support/kubectl.js';
import { startKapi, type RunningKapi } from './support/server.js';

const found = kubectlBinaries(['1.27', '1.33']);
const versioned = found.filter((b) => b.name !== 'kubectl');
const binaries = versioned.length > 0 ? versioned : found;
let server: RunningKapi;

beforeAll(async () => {
  server = await startKapi();
}, 60_000);
afterAll(async () => server?.stop());

/** Header and rows of kubectl's table output, split on runs of two or more spaces. */
function table(text: string): string[][] {
  return text.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));
}

const hpaYaml = (ns: string) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: ${ns}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 2
  maxReplicas: 6
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`;

test('kubectl binaries are present', () => {
  expect(binaries.length).toBeGreaterThan(0);
});

for (const binary of binaries) {
  describe(`batch and autoscaling with ${binary.name}`, () => {
    let k: Kubectl;
    const ns = `batch-${binary.name.replace(/\W/g, '')}`;
    beforeAll(() => {
      k = kubectl(binary, server.kubeconfig);
      ok(k, ['create', 'ns', ns]);
    });

    test('create job: defaults, generated selector and labels', () => {
      expect(ok(k, ['-n', ns, 'create', 'job', 'pi', '--image=busybox', '--', 'echo', 'hi'])).toContain('job.batch/pi created');
      const job = JSON.parse(ok(k, ['-n', ns, 'get', 'job', 'pi', '-o', 'json']));
      const uid = job.metadata.uid as string;
      expect(job.spec).toMatchObject({
        backoffLimit: 6,
        completions: 1,
        parallelism: 1,
        completionMode: 'NonIndexed',
        suspend: false,
        manualSelector: false,
        podReplacementPolicy: 'TerminatingOrFailed',
        selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      });
      expect(job.spec.template.metadata.labels).toEqual({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
      expect(job.spec.template.spec).toMatchObject({ restartPolicy: 'Never', containers: [{ name: 'pi', image: 'busybox', command: ['echo', 'hi'] }] });
      expect(job.metadata.generation).toBe(1);
    });

    test('create cronjob, then a job from it', () => {
      expect(ok(k, ['-n', ns, 'create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'])).toContain('cronjob.batch/tick created');
      const cj = JSON.parse(ok(k, ['-n', ns, 'get', 'cronjob', 'tick', '-o', 'json']));
      expect(cj.spec).toMatchObject({ schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
      expect(cj.spec.jobTemplate.spec.template.spec.restartPolicy).toBe('OnFailure');

      expect(ok(k, ['-n', ns, 'create', 'job', 'tick-manual', '--from=cronjob/tick'])).toContain('job.batch/tick-manual created');
      const job = JSON.parse(ok(k, ['-n', ns, 'get', 'job', 'tick-manual', '-o', 'json']));
      expect(job.metadata.annotations).toMatchObject({ 'cronjob.kubernetes.io/instantiate': 'manual' });
      expect(job.metadata.ownerReferences).toMatchObject([{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: cj.metadata.uid }]);
      expect(job.spec.template.spec.containers[0]).toMatchObject({ image: 'busybox', command: ['date'] });
    });

    test('get jobs,cronjobs shows kube\'s columns', () => {
      const out = ok(k, ['-n', ns, 'get', 'jobs,cronjobs']);
      const [jobPart, cronPart] = out.trim().split(/\n\s*\n/);
      const jobRows = table(jobPart!);
      expect(jobRows[0]).toEqual(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
      expect(jobRows.slice(1).map((r) => r.slice(0, 3))).toEqual([
        ['job.batch/pi', 'Running', '0/1'],
        ['job.batch/tick-manual', 'Running', '0/1'],
      ]);
      const cronRows = table(cronPart!);
      expect(cronRows[0]).toEqual(['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
      expect(cronRows[1]!.slice(0, 6)).toEqual(['cronjob.batch/tick', '*/5 * * * *', '<none>', 'False', '0', '<none>']);

      const wide = table(ok(k, ['-n', ns, 'get', 'job', 'pi', '-o', 'wide']));
      expect(wide[0]).toEqual(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
      // DURATION is empty until the Job starts, so the row has one cell fewer.
      expect(wide[1]!.slice(0, 3)).toEqual(['pi', 'Running', '0/1']);
      expect(wide[1]!.slice(-3, -1)).toEqual(['pi', 'busybox']);
      expect(wide[1]!.at(-1)).toMatch(/^batch\.kubernetes\.io\/controller-uid=[\w-]+$/);
    });

    test('a bad schedule is refused with kube\'s message', () => {
      const res = k.run(['-n', ns, 'create', 'cronjob', 'bad', '--image=busybox', '--schedule=* * *']);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]');
      expect(k.run(['-n', ns, 'get', 'cronjob', 'bad']).code).not.toBe(0);
    });

    test('an HPA applied from YAML is listed with its target', () => {
      expect(ok(k, ['apply', '-f', '-'], hpaYaml(ns))).toContain('horizontalpodautoscaler.autoscaling/web created');
      const rows = table(ok(k, ['-n', ns, 'get', 'hpa']));
      expect(rows[0]).toEqual(['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
      expect(rows[1]!.slice(0, 6)).toEqual(['web', 'Deployment/web', 'cpu: <unknown>/50%', '2', '6', '0']);
      const hpa = JSON.parse(ok(k, ['-n', ns, 'get', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-o', 'json']));
      expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    });

    test('get all lists the kinds in the all category', () => {
      const names = ok(k, ['-n', ns, 'get', 'all', '-o', 'name']).trim().split('\n');
      expect(names).toEqual(expect.arrayContaining(['job.batch/pi', 'job.batch/tick-manual', 'cronjob.batch/tick', 'horizontalpodautoscaler.autoscaling/web']));
    });

    test('explain cronjob.spec', () => {
      const out = ok(k, ['explain', 'cronjob.spec']);
      expect(out).toMatch(/KIND:\s+CronJob/);
      expect(out).toMatch(/GROUP:\s+batch/);
      expect(out).toMatch(/VERSION:\s+v1/);
      for (const field of ['schedule', 'jobTemplate', 'timeZone', 'concurrencyPolicy']) expect(out).toContain(field);
    });
  });
}
