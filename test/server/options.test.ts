import { describe, expect, test } from 'vitest';
import { helpText, OptionsError, parseOptions, type Options } from '../../src/server/options.js';

// One host interface besides loopback, so the default advertise address is known.
const env = {
  cwd: '/srv/kapi',
  interfaces: () => ({
    lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4' as const, mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }],
    eth0: [{ address: '192.0.2.7', netmask: '255.255.255.0', family: 'IPv4' as const, mac: '02:00:00:00:00:01', internal: false, cidr: '192.0.2.7/24' }],
  }),
};

const DEFAULTS: Options = {
  securePort: 6443,
  bindAddress: '127.0.0.1',
  dataDir: '/srv/kapi/data',
  certDir: '/srv/kapi/data/pki',
  adminKubeconfigPath: '/srv/kapi/data/admin.kubeconfig',
  storageBackend: 'sqlite',
  sqliteSynchronous: 'FULL',
  etcd: { servers: [], prefix: '/registry', caFile: undefined, certFile: undefined, keyFile: undefined, compactionIntervalMs: 300_000 },
  tlsCertFile: undefined,
  tlsPrivateKeyFile: undefined,
  clientCaFile: undefined,
  tokenAuthFile: undefined,
  kubelet: { clientCertFile: undefined, clientKeyFile: undefined, caFile: undefined, preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'] },
  anonymousAuth: true,
  enableBootstrapTokenAuth: false,
  controllers: ['*'],
  leaderElect: true,
  oidc: undefined,
  authenticationConfigFile: undefined,
  anonymousAuthFlagSet: false,
  authorizationModes: ['Node', 'RBAC'],
  authorizationPolicyFile: undefined,
  authorizationWebhook: { configFile: undefined, version: 'v1beta1', authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 },
  authorizationConfigFile: undefined,
  requestTimeoutMs: 60_000,
  minRequestTimeoutSeconds: 1800,
  responseCompression: true,
  watchCache: { enabled: true, historyWindowMs: 300_000, maxEvents: 100_000 },
  shutdownDelayMs: 0,
  advertiseAddress: '192.0.2.7',
  serviceClusterIPRange: { cidr: '10.0.0.0/24', base: 167772160, size: 256 },
  serviceNodePortRange: { text: '30000-32767', base: 30000, size: 2768 },
  serviceAccount: { issuer: 'https://kubernetes.default.svc.cluster.local', signingKeyFile: undefined, keyFile: undefined, apiAudiences: [], lookup: true },
  verbosity: 0,
  help: false,
};

describe('parseOptions accepts', () => {
  const cases: Array<{ name: string; argv: string[]; want: Partial<Options> }> = [
    { name: 'nothing: the defaults', argv: [], want: {} },
    { name: '--flag=value', argv: ['--secure-port=7443'], want: { securePort: 7443 } },
    { name: '--flag value', argv: ['--secure-port', '7443'], want: { securePort: 7443 } },
    { name: 'last occurrence wins', argv: ['--secure-port=1', '--secure-port=2'], want: { securePort: 2 } },
    { name: 'any IPv4 bind address', argv: ['--bind-address=0.0.0.0'], want: { bindAddress: '0.0.0.0' } },
    { name: 'an IPv6 bind address', argv: ['--bind-address', '::1'], want: { bindAddress: '::1' } },
    { name: 'a blank bind address means every interface', argv: ['--bind-address='], want: { bindAddress: '0.0.0.0' } },
    { name: 'a routable bind address is advertised', argv: ['--bind-address=192.0.2.9'], want: { bindAddress: '192.0.2.9', advertiseAddress: '192.0.2.9' } },
    { name: 'leader election can be turned off', argv: ['--leader-elect=false'], want: { leaderElect: false } },
    { name: 'controllers by new and old names', argv: ['--controllers=*,tokencleaner,-bootstrap-signer-controller'], want: { controllers: ['*', 'tokencleaner', '-bootstrap-signer-controller'] } },
    { name: 'an explicit advertise address', argv: ['--advertise-address=198.51.100.4'], want: { advertiseAddress: '198.51.100.4' } },
    {
      name: 'service ranges',
      argv: ['--service-cluster-ip-range=10.96.0.0/12', '--service-node-port-range=31000+99'],
      want: { serviceClusterIPRange: { cidr: '10.96.0.0/12', base: 174063616, size: 1048576 }, serviceNodePortRange: { text: '31000-31099', base: 31000, size: 100 } },
    },
    {
      name: 'service account tokens',
      argv: ['--service-account-issuer=https://kapi.example', '--service-account-signing-key-file=k/sa.key', '--service-account-key-file=/old.pub', '--api-audiences=a,b'],
      want: { serviceAccount: { issuer: 'https://kapi.example', signingKeyFile: '/srv/kapi/k/sa.key', keyFile: '/old.pub', apiAudiences: ['a', 'b'], lookup: true } },
    },
    {
      name: 'service account lookup off',
      argv: ['--service-account-lookup=false'],
      want: { serviceAccount: { issuer: 'https://kubernetes.default.svc.cluster.local', signingKeyFile: undefined, keyFile: undefined, apiAudiences: [], lookup: false } },
    },
    { name: 'a CIDR given by a host address is its network', argv: ['--service-cluster-ip-range=10.0.0.77/24'], want: { serviceClusterIPRange: { cidr: '10.0.0.0/24', base: 167772160, size: 256 } } },
    {
      name: 'data dir moves the cert dir and kubeconfig',
      argv: ['--data-dir', 'var/kapi'],
      want: { dataDir: '/srv/kapi/var/kapi', certDir: '/srv/kapi/var/kapi/pki', adminKubeconfigPath: '/srv/kapi/var/kapi/admin.kubeconfig' },
    },
    { name: 'an explicit cert dir is relative to the working directory', argv: ['--data-dir=/d', '--cert-dir=certs'], want: { dataDir: '/d', certDir: '/srv/kapi/certs', adminKubeconfigPath: '/d/admin.kubeconfig' } },
    {
      name: 'etcd3 with its flags',
      argv: ['--storage-backend=etcd3', '--etcd-servers=https://a:2379,https://b:2379', '--etcd-servers', 'https://c:2379', '--etcd-prefix=/kapi', '--etcd-cafile=ca.pem', '--etcd-certfile=/c.pem', '--etcd-keyfile=/k.pem', '--etcd-compaction-interval=0'],
      want: {
        storageBackend: 'etcd3',
        etcd: { servers: ['https://a:2379', 'https://b:2379', 'https://c:2379'], prefix: '/kapi', caFile: '/srv/kapi/ca.pem', certFile: '/c.pem', keyFile: '/k.pem', compactionIntervalMs: 0 },
      },
    },
    { name: 'sqlite synchronous NORMAL', argv: ['--sqlite-synchronous=NORMAL'], want: { sqliteSynchronous: 'NORMAL' } },
    { name: 'TLS pair', argv: ['--tls-cert-file=s.crt', '--tls-private-key-file', '/k/s.key'], want: { tlsCertFile: '/srv/kapi/s.crt', tlsPrivateKeyFile: '/k/s.key' } },
    { name: 'client CA', argv: ['--client-ca-file=/etc/ca.crt'], want: { clientCaFile: '/etc/ca.crt' } },
    { name: 'authorization modes in order', argv: ['--authorization-mode=AlwaysDeny,AlwaysAllow'], want: { authorizationModes: ['AlwaysDeny', 'AlwaysAllow'] } },
    { name: 'Go durations', argv: ['--request-timeout=1m30s', '--etcd-compaction-interval', '1.5h'], want: { requestTimeoutMs: 90_000, etcd: { ...DEFAULTS.etcd, compactionIntervalMs: 5_400_000 } } },
    { name: 'min request timeout', argv: ['--min-request-timeout=60'], want: { minRequestTimeoutSeconds: 60 } },
    { name: 'watch cache off', argv: ['--watch-cache=false'], want: { watchCache: { enabled: false, historyWindowMs: 300_000, maxEvents: 100_000 } } },
    {
      name: 'watch cache window and size',
      argv: ['--watch-cache-history-window=90s', '--watch-cache-max-events', '500'],
      want: { watchCache: { enabled: true, historyWindowMs: 90_000, maxEvents: 500 } },
    },
    { name: 'shutdown delay', argv: ['--shutdown-delay-duration=15s'], want: { shutdownDelayMs: 15_000 } },
    { name: '-v N', argv: ['-v', '4'], want: { verbosity: 4 } },
    { name: '-v=N', argv: ['-v=3'], want: { verbosity: 3 } },
    { name: '-vN', argv: ['-v2'], want: { verbosity: 2 } },
    { name: '--v=N', argv: ['--v=5'], want: { verbosity: 5 } },
    { name: '--help', argv: ['--help'], want: { help: true } },
    { name: '-h', argv: ['-h'], want: { help: true } },
    { name: '--help=false', argv: ['--help=false'], want: { help: false } },
    { name: '--help skips value validation', argv: ['--secure-port=0', '--help'], want: { help: true, securePort: 0 } },
    { name: '--authentication-config relative to the working directory', argv: ['--authentication-config=auth.yaml'], want: { authenticationConfigFile: '/srv/kapi/auth.yaml' } },
    { name: '--anonymous-auth given explicitly is remembered', argv: ['--anonymous-auth=true'], want: { anonymousAuthFlagSet: true } },
  ];
  for (const c of cases) {
    test(c.name, () => {
      expect(parseOptions(c.argv, env)).toEqual({ ...DEFAULTS, ...c.want });
    });
  }
});

describe('parseOptions rejects', () => {
  const cases: Array<{ name: string; argv: string[]; want: string[] }> = [
    { name: 'an unknown flag', argv: ['--foo=1'], want: ['unknown flag: --foo'] },
    { name: '--authentication-config with an --oidc-* flag', argv: ['--authentication-config=/a.yaml', '--oidc-client-id=k'], want: ['authentication-config file and oidc-* flags are mutually exclusive'] },
    { name: 'an unknown flag stops before value checks', argv: ['--secure-port=0', '--foo'], want: ['unknown flag: --foo'] },
    { name: 'an issuer with a colon that is no URL', argv: ['--service-account-issuer=https://[::1'], want: ['--service-account-issuer "https://[::1" contained a \':\' but was not a valid URL'] },
    { name: 'a kube flag not offered yet', argv: ['--runtime-config=api/all=true'], want: ['flag --runtime-config is not supported by kapi yet'] },
    { name: 'a service-account-lookup that is no bool', argv: ['--service-account-lookup=maybe'], want: ['invalid argument "maybe" for "--service-account-lookup" flag: not a boolean'] },
    { name: 'a single-dash long flag', argv: ['-secure-port=1'], want: ["unknown shorthand flag: 's' in -secure-port=1"] },
    { name: 'a missing value', argv: ['--data-dir'], want: ['flag needs an argument: --data-dir'] },
    { name: 'positional arguments', argv: ['serve'], want: ['kapi does not take any arguments, got ["serve"]'] },
    { name: 'port 0', argv: ['--secure-port=0'], want: ['--secure-port 0 must be between 1 and 65535, inclusive. It cannot be turned off with 0'] },
    { name: 'port too large', argv: ['--secure-port=70000'], want: ['--secure-port 70000 must be between 1 and 65535, inclusive. It cannot be turned off with 0'] },
    { name: 'port not a number', argv: ['--secure-port=https'], want: ['invalid argument "https" for "--secure-port" flag: not an integer'] },
    { name: 'bad IP', argv: ['--bind-address=localhost'], want: ['invalid argument "localhost" for "--bind-address" flag: not an IP address'] },
    { name: 'bad advertise address', argv: ['--advertise-address=example.org'], want: ['invalid argument "example.org" for "--advertise-address" flag: not an IP address'] },
    { name: 'service range not a CIDR', argv: ['--service-cluster-ip-range=10.0.0.0'], want: ['invalid argument "10.0.0.0" for "--service-cluster-ip-range" flag: "10.0.0.0" is not an IPv4 CIDR (e.g. 10.0.0.0/24)'] },
    { name: 'service range too large', argv: ['--service-cluster-ip-range=10.0.0.0/8'], want: ['invalid argument "10.0.0.0/8" for "--service-cluster-ip-range" flag: 10.0.0.0/8: the mask must be between /12 and /30'] },
    { name: 'node port range backwards', argv: ['--service-node-port-range=32000-31000'], want: ['invalid argument "32000-31000" for "--service-node-port-range" flag: 32000-31000: ports must be 1-65535, the first not above the last'] },
    { name: 'bad storage backend', argv: ['--storage-backend=etcd2'], want: ['--storage-backend "etcd2" invalid, allowed values: sqlite, etcd3'] },
    { name: 'etcd3 without servers', argv: ['--storage-backend=etcd3'], want: ['--etcd-servers must be specified'] },
    { name: 'a watch cache flag that is no bool', argv: ['--watch-cache=sometimes'], want: ['invalid argument "sometimes" for "--watch-cache" flag: not a boolean'] },
    { name: 'an empty watch cache window', argv: ['--watch-cache-history-window=0s'], want: ['--watch-cache-history-window must be positive'] },
    { name: 'no watch cache events', argv: ['--watch-cache-max-events=0'], want: ['--watch-cache-max-events must be positive'] },
    { name: 'etcd server not a URL', argv: ['--etcd-servers=a:2379'], want: ['--etcd-servers "a:2379" is not a URL like https://host:2379'] },
    { name: 'etcd cert without key', argv: ['--etcd-certfile=/c'], want: ['--etcd-certfile and --etcd-keyfile must be given together'] },
    { name: 'kubelet client key without cert', argv: ['--kubelet-client-key=/k'], want: ['--kubelet-client-certificate and --kubelet-client-key must be given together'] },
    { name: 'bad sqlite synchronous', argv: ['--sqlite-synchronous=OFF'], want: ['--sqlite-synchronous "OFF" invalid, allowed values: FULL, NORMAL'] },
    { name: 'TLS cert without key', argv: ['--tls-cert-file=/s.crt'], want: ['--tls-cert-file and --tls-private-key-file must be given together'] },
    { name: 'unknown authorization mode', argv: ['--authorization-mode=Magic'], want: ['authorization-mode "Magic" is not a valid mode'] },
    { name: 'Webhook without its kubeconfig', argv: ['--authorization-mode=Webhook,RBAC'], want: ["authorization-mode Webhook's authorization config file not passed"] },
    { name: 'a webhook kubeconfig without Webhook', argv: ['--authorization-webhook-config-file=/x.yaml'], want: ['cannot specify --authorization-webhook-config-file without mode Webhook'] },
    { name: 'a bad webhook version', argv: ['--authorization-mode=Webhook', '--authorization-webhook-config-file=/x.yaml', '--authorization-webhook-version=v2'], want: ['--authorization-webhook-version must be v1 or v1beta1, got "v2"'] },
    { name: '--authorization-config beside the mode flag', argv: ['--authorization-config=/a.yaml', '--authorization-mode=RBAC'], want: ['--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'] },
    { name: 'ABAC without its policy file', argv: ['--authorization-mode=ABAC,RBAC'], want: ["authorization-mode ABAC's authorization policy file not passed"] },
    { name: 'a policy file without ABAC', argv: ['--authorization-policy-file=/x.jsonl'], want: ['cannot specify --authorization-policy-file without mode ABAC'] },
    { name: 'duplicate authorization mode', argv: ['--authorization-mode=AlwaysAllow,AlwaysAllow'], want: ['authorization-mode "AlwaysAllow" has mode specified more than once'] },
    { name: 'empty authorization mode', argv: ['--authorization-mode='], want: ['at least one authorization-mode must be passed'] },
    { name: 'bad duration', argv: ['--request-timeout=60'], want: ['invalid argument "60" for "--request-timeout" flag: time: invalid duration "60"'] },
    { name: 'negative duration', argv: ['--etcd-compaction-interval=-1m'], want: ['--etcd-compaction-interval can not be negative'] },
    { name: 'negative shutdown delay', argv: ['--shutdown-delay-duration=-5s'], want: ['--shutdown-delay-duration can not be negative value'] },
    { name: 'shutdown delay without a unit', argv: ['--shutdown-delay-duration=5'], want: ['invalid argument "5" for "--shutdown-delay-duration" flag: time: invalid duration "5"'] },
    {
      name: 'an unknown controller',
      argv: ['--controllers=*,-deployment'],
      want: [
        '--controllers: "deployment" is not in the list of known controllers (namespace-controller, serviceaccount-controller, root-ca-certificate-publisher-controller, serviceaccount-token-controller, clusterrole-aggregation-controller, bootstrap-signer-controller, token-cleaner-controller)',
      ],
    },
    { name: 'bad boolean', argv: ['--help=yes'], want: ['invalid argument "yes" for "--help" flag: not a boolean'] },
    {
      name: 'every value problem at once',
      argv: ['--secure-port=0', '--bind-address=x', '--storage-backend=etcd3'],
      want: [
        '--secure-port 0 must be between 1 and 65535, inclusive. It cannot be turned off with 0',
        'invalid argument "x" for "--bind-address" flag: not an IP address',
        '--etcd-servers must be specified',
      ],
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      let caught: unknown;
      try {
        parseOptions(c.argv, env);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(OptionsError);
      expect([...(caught as OptionsError).problems].sort()).toEqual([...c.want].sort());
      for (const line of (caught as OptionsError).problems) expect(line).not.toContain('\n');
    });
  }
});

test('help lists every flag with its default', () => {
  const text = helpText();
  for (const line of ['--secure-port int', '(default 6443)', '--bind-address string', '--etcd-compaction-interval duration', '(default 5m0s)', '--shutdown-delay-duration duration', '-v, --v int', '--authorization-mode strings']) {
    expect(text).toContain(line);
  }
});
