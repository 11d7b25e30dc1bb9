// The realistic Deployment both the http bench's Deployment row and the
// in-process write-path bench send: what a Helm chart sends for a typical
// three-container workload (ports, env, resources, the three probes, a mount;
// about 2 KiB of JSON, like the ConfigMap they are compared with).

function benchContainer(name: string, image: string, port: number): object {
  const httpProbe = { httpGet: { path: '/healthz', port }, initialDelaySeconds: 5, periodSeconds: 10 };
  return {
    name,
    image,
    args: ['--port', String(port), '--log-level=info'],
    ports: [{ name: 'http', containerPort: port }],
    env: [
      { name: 'MODE', value: 'production' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '512Mi' } },
    livenessProbe: httpProbe,
    readinessProbe: { ...httpProbe, periodSeconds: 5 },
    startupProbe: { tcpSocket: { port }, failureThreshold: 30 },
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
  };
}

export function benchDeployment(name: string): { apiVersion: string; kind: string; metadata: { name: string; namespace: string; labels: Record<string, string> }; spec: object } {
  const labels = { 'app.kubernetes.io/name': 'shop', 'app.kubernetes.io/instance': name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { 'prometheus.io/scrape': 'true' } },
        spec: {
          containers: [
            benchContainer('web', 'registry.example.com/shop/web:1.4.2', 8080),
            benchContainer('api', 'registry.example.com/shop/api:1.4.2', 9090),
            benchContainer('proxy', 'envoyproxy/envoy:v1.30.1', 9901),
          ],
          volumes: [{ name: 'config', configMap: { name: 'shop-config' } }],
        },
      },
    },
  };
}
