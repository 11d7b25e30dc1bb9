// Decode and schema-validation cost on a realistic Pod (3 containers with probes,
// resources, env, mounts; volumes, tolerations, affinity), every figure measured in
// this run: the typed decode (JSON.parse + the typed walk, schema/typed.ts) against
// JSON.parse alone, and the typed decode followed by the schema layer of validation
// (registry/validation/schema.ts) against the typed decode alone. The schema is
// compiled once per kind, so the second ratio is the per-request walk only.
// `node dist/bench/decode.js` runs it alone; bench/run.ts lists it with the others.
import { pathToFileURL } from 'node:url';
import { schemaValidatorFor } from '../src/registry/validation/schema.js';
import { builtinDefinitions, builtinSchema } from '../src/schema/definitions.js';
import { checkTyped } from '../src/schema/typed.js';
import { formatTable, paired, ratioRow, type Bench, type BenchRow } from './lib.js';

const AREA = 'decode';
const POD_SCHEMA = 'io.k8s.api.core.v1.Pod';

function container(name: string, port: number): Record<string, unknown> {
  const probe = { httpGet: { path: '/healthz', port, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 };
  return {
    name,
    image: `registry.example.com/team/${name}:1.2.3`,
    imagePullPolicy: 'IfNotPresent',
    command: ['/bin/server'],
    args: ['--port', String(port), '--log-level=info'],
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }, { name: 'metrics', containerPort: port + 1000, protocol: 'TCP' }],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    ],
    resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
    livenessProbe: probe,
    readinessProbe: { ...probe, httpGet: { ...probe.httpGet, path: '/ready' } },
    volumeMounts: [{ name: 'config', mountPath: '/etc/config', readOnly: true }, { name: 'data', mountPath: '/data' }],
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
}

/** The Pod as a client sends it (bytes), so each decode starts from JSON. */
export const REALISTIC_POD = JSON.stringify({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-7d4b9c', namespace: 'default', labels: { app: 'web', tier: 'frontend', version: 'v1' }, annotations: { 'example.com/owner': 'team-a' } },
  spec: {
    containers: [container('web', 8080), container('sidecar', 9090), container('proxy', 7070)],
    volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }, { name: 'data', emptyDir: {} }],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'web',
    securityContext: { fsGroup: 2000 },
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname' } },
        ],
      },
    },
  },
});

/** Calls per second of `op` over `n` calls. */
function rate(n: number, op: () => unknown): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) op();
  return n / (Number(process.hrtime.bigint() - t0) / 1e9);
}

const parse = (): unknown => JSON.parse(REALISTIC_POD);
const typed = (): unknown => {
  const obj = JSON.parse(REALISTIC_POD);
  checkTyped(POD_SCHEMA, obj, builtinDefinitions);
  return obj;
};
const validator = schemaValidatorFor(builtinSchema(POD_SCHEMA));
const typedAndValidated = (): unknown => {
  const obj = typed();
  if (validator.validate(obj).length !== 0) throw new Error('the realistic Pod must be valid');
  return obj;
};

export const bench: Bench = {
  name: 'decode',
  async run({ quick }): Promise<BenchRow[]> {
    const n = quick ? 2_000 : 20_000;
    const rounds = quick ? 2 : 5;
    // Warm both paths (JIT, the compiled schema) before timing.
    rate(n / 4, typedAndValidated);
    const decode = await paired(rounds, async () => rate(n, parse), async () => rate(n, typed));
    const validate = await paired(rounds, async () => rate(n, typed), async () => rate(n, typedAndValidated));
    return [
      ratioRow({ area: AREA, name: 'realistic Pod: typed decode', baselineName: 'JSON.parse', unit: 'objects/s', ...decode }),
      ratioRow({ area: AREA, name: 'realistic Pod: typed decode + schema validation', baselineName: 'typed decode', unit: 'objects/s', minRatio: 0.8, ...validate }),
    ];
  },
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await bench.run({ quick: process.argv.includes('--quick') });
  process.stdout.write(`${formatTable(rows)}\n`);
}
