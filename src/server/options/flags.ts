// The command-line flags kapi accepts: kube-apiserver's names, meanings and
// defaults wherever kube-apiserver has the flag (DESIGN.md "Command line"), plus
// our own --data-dir, --storage-backend=sqlite and --sqlite-synchronous. One table
// drives parsing and --help, so a flag cannot be parsed without being documented.

/** How a flag's text value is read (pflag's value types). */
export type FlagKind = 'string' | 'int' | 'bool' | 'duration' | 'stringList';

export interface FlagSpec {
  readonly name: string;
  readonly shorthand?: string;
  readonly kind: FlagKind;
  /** As --help prints it; '' prints no default. */
  readonly defaultText: string;
  readonly usage: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { name: 'secure-port', kind: 'int', defaultText: '6443', usage: 'The port on which to serve HTTPS with authentication and authorization. It cannot be switched off with 0.' },
  {
    name: 'bind-address',
    kind: 'string',
    defaultText: '127.0.0.1',
    usage: 'The IP address on which to listen for the --secure-port port. kube-apiserver defaults to 0.0.0.0; kapi listens on loopback unless told otherwise.',
  },
  {
    name: 'advertise-address',
    kind: 'string',
    defaultText: '',
    usage:
      'The IP address on which to advertise the apiserver to members of the cluster (the endpoints of the default/kubernetes service). If blank, --bind-address is used, or the first non-loopback IPv4 address of the host when that is loopback or unspecified.',
  },
  {
    name: 'service-cluster-ip-range',
    kind: 'string',
    defaultText: '10.0.0.0/24',
    usage: 'A CIDR notation IP range from which to assign service cluster IPs (IPv4, mask /12 to /30). This must not overlap with any IP ranges assigned to nodes or pods.',
  },
  { name: 'service-node-port-range', kind: 'string', defaultText: '30000-32767', usage: 'A port range to reserve for services with NodePort visibility. Example: 30000-32767. Inclusive at both ends of the range.' },
  { name: 'data-dir', kind: 'string', defaultText: './data', usage: 'Directory for the SQLite database, generated certificates and admin.kubeconfig (kapi only).' },
  { name: 'storage-backend', kind: 'string', defaultText: 'sqlite', usage: "The storage backend for persistence. Options: 'sqlite' (embedded, kapi only), 'etcd3'." },
  { name: 'sqlite-synchronous', kind: 'string', defaultText: 'FULL', usage: 'SQLite synchronous pragma: FULL (fsync every commit) or NORMAL (kapi only).' },
  { name: 'etcd-servers', kind: 'stringList', defaultText: '', usage: 'List of etcd servers to connect with (scheme://ip:port), comma separated. Required with --storage-backend=etcd3.' },
  { name: 'etcd-prefix', kind: 'string', defaultText: '/registry', usage: 'The prefix to prepend to all resource paths in etcd.' },
  { name: 'etcd-cafile', kind: 'string', defaultText: '', usage: 'SSL Certificate Authority file used to secure etcd communication.' },
  { name: 'etcd-certfile', kind: 'string', defaultText: '', usage: 'SSL certification file used to secure etcd communication.' },
  { name: 'etcd-keyfile', kind: 'string', defaultText: '', usage: 'SSL key file used to secure etcd communication.' },
  { name: 'etcd-compaction-interval', kind: 'duration', defaultText: '5m0s', usage: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.' },
  { name: 'watch-cache', kind: 'bool', defaultText: 'true', usage: 'Enable watch caching in the apiserver' },
  { name: 'watch-cache-history-window', kind: 'duration', defaultText: '5m0s', usage: 'How long the watch cache keeps each change for watches and exact lists from the past (kapi only).' },
  { name: 'watch-cache-max-events', kind: 'int', defaultText: '100000', usage: 'The most changes the watch cache keeps per resource; older ones leave first (kapi only).' },
  {
    name: 'tls-cert-file',
    kind: 'string',
    defaultText: '',
    usage: 'File containing the default x509 Certificate for HTTPS (CA cert, if any, concatenated after server cert). If neither this nor --tls-private-key-file is given, a self-signed certificate and key are generated in --cert-dir.',
  },
  { name: 'tls-private-key-file', kind: 'string', defaultText: '', usage: 'File containing the default x509 private key matching --tls-cert-file.' },
  {
    name: 'cert-dir',
    kind: 'string',
    defaultText: '<data-dir>/pki',
    usage: 'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag is ignored for serving. kube-apiserver defaults to /var/run/kubernetes.',
  },
  {
    name: 'client-ca-file',
    kind: 'string',
    defaultText: '',
    usage: 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate. Defaults to the generated CA.',
  },
  {
    name: 'authorization-mode',
    kind: 'stringList',
    defaultText: '[Node,RBAC]',
    usage: 'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,ABAC,Webhook,RBAC,Node. (kube-apiserver defaults to AlwaysAllow.)',
  },
  {
    name: 'authorization-config',
    kind: 'string',
    defaultText: '',
    usage: 'File with Authorization Configuration to configure the authorizer chain. Requires feature gate StructuredAuthorizationConfiguration. This flag is mutually exclusive with the other --authorization-mode and --authorization-webhook-* flags.',
  },
  { name: 'authorization-webhook-config-file', kind: 'string', defaultText: '', usage: 'File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server\'s secure port.' },
  { name: 'authorization-webhook-version', kind: 'string', defaultText: 'v1beta1', usage: 'The API version of the authorization.k8s.io SubjectAccessReview to send to and expect from the webhook.' },
  { name: 'authorization-webhook-cache-authorized-ttl', kind: 'duration', defaultText: '5m0s', usage: "The duration to cache 'authorized' responses from the webhook authorizer." },
  { name: 'authorization-webhook-cache-unauthorized-ttl', kind: 'duration', defaultText: '30s', usage: "The duration to cache 'unauthorized' responses from the webhook authorizer." },
  {
    name: 'authorization-policy-file',
    kind: 'string',
    defaultText: '',
    usage: "File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.",
  },
  {
    name: 'service-account-issuer',
    kind: 'string',
    defaultText: 'https://kubernetes.default.svc.cluster.local',
    usage: 'Identifier of the service account token issuer: the "iss" claim of the tokens this server issues, and the only issuer whose tokens it accepts.',
  },
  {
    name: 'service-account-signing-key-file',
    kind: 'string',
    defaultText: '<cert-dir>/sa.key',
    usage: 'Path to the file that contains the current private key of the service account token issuer (RSA or EC P-256 PEM). Generated in --cert-dir on first start when not given.',
  },
  {
    name: 'service-account-key-file',
    kind: 'string',
    defaultText: '',
    usage: 'File containing PEM-encoded public keys (or certificates, or private keys) that also verify service account tokens, beside the signing key (for key rotation).',
  },
  { name: 'service-account-lookup', kind: 'bool', defaultText: 'true', usage: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.' },
  {
    name: 'anonymous-auth',
    kind: 'bool',
    defaultText: 'true',
    usage:
      'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests, with a username of system:anonymous and a group name of system:unauthenticated. Until RBAC exists, they may reach health, version, discovery and the service-account issuer documents only.',
  },
  {
    name: 'authentication-config',
    kind: 'string',
    defaultText: '',
    usage:
      'File with Authentication Configuration to configure the JWT Token authenticator or the anonymous authenticator. Requires the StructuredAuthenticationConfiguration feature gate. This flag is mutually exclusive with the --oidc-* flags if the file configures the JWT Token authenticator. This flag is mutually exclusive with --anonymous-auth if the file configures the Anonymous authenticator.',
  },
  {
    name: 'enable-bootstrap-token-auth',
    kind: 'bool',
    defaultText: 'false',
    usage: "Enable to allow secrets of type 'bootstrap.kubernetes.io/token' in the 'kube-system' namespace to be used for TLS bootstrapping authentication.",
  },
  { name: 'oidc-issuer-url', kind: 'string', defaultText: '', usage: "The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT)." },
  { name: 'oidc-client-id', kind: 'string', defaultText: '', usage: 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.' },
  { name: 'oidc-username-claim', kind: 'string', defaultText: 'sub', usage: 'The OpenID claim to use as the user name.' },
  {
    name: 'oidc-username-prefix',
    kind: 'string',
    defaultText: '',
    usage: "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.",
  },
  { name: 'oidc-groups-claim', kind: 'string', defaultText: '', usage: 'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.' },
  { name: 'oidc-groups-prefix', kind: 'string', defaultText: '', usage: 'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.' },
  { name: 'oidc-ca-file', kind: 'string', defaultText: '', usage: "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used." },
  {
    name: 'oidc-required-claim',
    kind: 'stringList',
    defaultText: '',
    usage: 'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.',
  },
  { name: 'oidc-signing-algs', kind: 'stringList', defaultText: 'RS256', usage: "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512." },
  {
    name: 'token-auth-file',
    kind: 'string',
    defaultText: '',
    usage: 'If set, the file that will be used to secure the secure port of the API server via token authentication: CSV lines of token, user name, user uid and an optional quoted list of groups.',
  },
  { name: 'kubelet-client-certificate', kind: 'string', defaultText: '', usage: 'Path to a client cert file for TLS (to the kubelets: pods/log).' },
  { name: 'kubelet-client-key', kind: 'string', defaultText: '', usage: 'Path to a client key file for TLS (to the kubelets: pods/log).' },
  {
    name: 'kubelet-certificate-authority',
    kind: 'string',
    defaultText: '',
    usage: "Path to a cert file for the certificate authority. Without it, the kubelets' serving certificates are not verified, as in kube-apiserver.",
  },
  {
    name: 'kubelet-preferred-address-types',
    kind: 'stringList',
    defaultText: '[Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP]',
    usage: 'List of the preferred NodeAddressTypes to use for kubelet connections.',
  },
  { name: 'api-audiences', kind: 'stringList', defaultText: '<service-account-issuer>', usage: 'Identifiers of the API. Service account tokens must name one of these audiences to authenticate.' },
  {
    name: 'controllers',
    kind: 'stringList',
    defaultText: '[*]',
    usage:
      "A list of controllers to enable (kube-controller-manager's flag; kapi runs them in-process). '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'. All controllers: bootstrap-signer-controller, clusterrole-aggregation-controller, namespace-controller, root-ca-certificate-publisher-controller, serviceaccount-controller, serviceaccount-token-controller, token-cleaner-controller. Disabled-by-default controllers: bootstrap-signer-controller, token-cleaner-controller.",
  },
  {
    name: 'leader-elect',
    kind: 'bool',
    defaultText: 'true',
    usage:
      "Start a leader election client and gain leadership (Lease kube-system/kube-controller-manager) before running the in-process controllers, as kube-controller-manager does. Only used with --storage-backend=etcd3, where several replicas may share the store.",
  },
  { name: 'request-timeout', kind: 'duration', defaultText: '1m0s', usage: 'The duration a handler must keep a request open before timing it out (not for long-running requests such as watch).' },
  { name: 'min-request-timeout', kind: 'int', defaultText: '1800', usage: 'The minimum number of seconds a handler must keep a request open before timing it out; only used for watch request handlers, which pick a randomized value above this number.' },
  {
    name: 'shutdown-delay-duration',
    kind: 'duration',
    defaultText: '0s',
    usage:
      'Time to delay the termination. During that time the server keeps serving requests normally. The endpoints /healthz and /livez will return success, but /readyz immediately returns failure. Graceful termination starts after this delay has elapsed. This can be used to allow load balancer to stop sending traffic to this server.',
  },
  {
    name: 'feature-gates',
    kind: 'string',
    defaultText: '',
    usage:
      'A set of key=value pairs that describe feature gates for alpha/experimental features, comma separated (kube 1.36\'s gates, stages and defaults; repeats accumulate). AllAlpha=true|false and AllBeta=true|false set every alpha or beta gate not named. A gate locked to its default refuses the other value; an unknown gate stops the start.',
  },
  { name: 'v', shorthand: 'v', kind: 'int', defaultText: '0', usage: 'Number for the log level verbosity.' },
  { name: 'help', shorthand: 'h', kind: 'bool', defaultText: '', usage: 'help for kapi' },
];

/**
 * kube-apiserver flags kapi does not implement yet: rejected like unknown ones, but
 * saying so, so nobody thinks a typo was made. TODO(#3): these move into FLAGS as
 * their features land.
 */
export const NOT_YET_SUPPORTED: ReadonlySet<string> = new Set([
  'enable-admission-plugins',
  'disable-admission-plugins',
  'admission-control-config-file',
  'runtime-config',
  'encryption-provider-config',
  'audit-log-path',
  'audit-policy-file',
  'max-requests-inflight',
  'max-mutating-requests-inflight',
  'livez-grace-period',
  'show-hidden-metrics-for-version',
]);

export function helpText(): string {
  const rows = FLAGS.map((flag) => {
    const names = `${flag.shorthand === undefined ? '    ' : `-${flag.shorthand}, `}--${flag.name}`;
    const type = flag.kind === 'bool' ? '' : ` ${flag.kind === 'stringList' ? 'strings' : flag.kind}`;
    const def = flag.defaultText === '' ? '' : ` (default ${flag.defaultText})`;
    return { left: `  ${names}${type}`, right: `${flag.usage}${def}` };
  });
  const width = Math.max(...rows.map((r) => r.left.length)) + 3;
  return ['kapi: a Kubernetes-compatible API server.', '', 'Usage:', '  kapi [flags]', '  kapi credential [flags]    an exec credential plugin for kubectl (kapi credential --help)', '', 'Flags:', ...rows.map((r) => r.left.padEnd(width) + r.right), ''].join('\n');
}
