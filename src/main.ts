// The composition root: flags -> certificates and kubeconfig -> storage -> the
// catalog of built-in groups and the registry over it -> Fastify with the filter
// chain and every endpoint -> listen -> bootstrap objects -> `kapi ready`; and
// the way out: signals -> bounded
// shutdown (server/shutdown.ts), crashes -> one fatal log line (server/fatal.ts).
// Nothing else in the code base builds long-lived objects or reads flags.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pino, type Logger } from 'pino';
import { builtinApis } from './apis/index.js';
import { createAuthenticator } from './auth/authn/create.js';
import type { FastifyRequest } from 'fastify';
import { createRequestAuthenticator } from './auth/authn/request.js';
import { nodeRestrictionFromStorage } from './apis/core/v1/node-restriction-admission.js';
import { createRequestAuthorizer } from './auth/authz/request.js';
import { checkAuthorizationFiles, createServerAuthorization } from './server/authorization.js';
import { hostname } from 'node:os';
import { createApp } from './server/app.js';
import { createChain } from './server/chain.js';
import { registerHealthRoutes, checkOf } from './server/health.js';
import { createApiMetrics, recordFeatureGates, registerMetricsRoute } from './server/metrics.js';
import { OptionsError, helpText, parseOptions, type Options } from './server/options.js';
import { validateFiles, type ValidatedFiles } from './server/options/validate-files.js';
import { prepareCertificates } from './server/certificates.js';
import { serverUrlFor } from './server/kubeconfig.js';
import { openKv } from './server/storage.js';
import { registerVersionRoute } from './server/version.js';
import { bootstrapKubernetesService, bootstrapNamespaces } from './server/bootstrap.js';
import { trackInFlight, type InFlight } from './server/in-flight.js';
import { dieWith, installFatalHandlers, type FatalOptions } from './server/fatal.js';
import { lastResortMs, runShutdown, shutdownBounds } from './server/shutdown.js';
import { startControllers } from './server/controllers.js';
import { startLeaderElection } from './server/leader-election.js';
import { ensureClusterInfo } from './server/cluster-info.js';
import { registerDiscoveryRoutes } from './endpoints/discovery/routes.js';
import { installResources } from './endpoints/installer.js';
import { encodeStatusFor } from './endpoints/negotiation.js';
import { createOpenApi, registerOpenApiRoutes } from './endpoints/openapi/index.js';
import { createAdmissionChain, defaultAdmissionPlugins } from './admission/chain.js';
import { priorityAdmissionFromStorage } from './apis/scheduling/v1/index.js';
import { bootstrapPriorityClasses } from './server/bootstrap-scheduling.js';
import { bootstrapFlowControl } from './server/bootstrap-flowcontrol.js';
import { bootstrapRbac } from './server/bootstrap-rbac.js';
import { apiserverIdentity, bootstrapSystemObjects, startIdentityLease } from './server/bootstrap-system.js';
import { createCatalog } from './registry/catalog.js';
import { createRegistry } from './registry/registry.js';
import { collectionPrefix } from './registry/keys.js';
import { createNamespaceCache } from './registry/namespace-cache.js';
import { namespaces as namespacesDefinition } from './apis/core/v1/namespaces.js';
import { services as servicesDefinition } from './apis/core/v1/services.js';
import { setSecretLabel } from './apis/core/v1/service-account-token.js';
import { pods as podsDefinition } from './apis/core/v1/pods.js';
import { podResizeAdmissionFromStorage } from './apis/core/v1/pod-resize-admission.js';
import { DEFAULT_KUBELET_CLIENT } from './apis/core/v1/kubelet-client.js';
import { podDisruptionBudgets } from './apis/policy/v1/pod-disruption-budgets.js';
import { storageComponent } from './apis/core/v1/component-statuses.js';
import { createTokenKeys, ensureSigningKeyPem } from './auth/serviceaccount/tokens.js';
import { createServiceAccountAuthenticator } from './auth/authn/service-account.js';
import { createBootstrapTokenAuthenticator } from './auth/authn/bootstrap-token.js';
import { createOidcAuthenticator } from './auth/authn/oidc.js';
import { createAuthenticationConfigAuthenticator, loadAuthenticationConfig, watchAuthenticationConfig } from './auth/authn/authentication-config-file.js';
import { registerServiceAccountIssuerRoutes } from './server/service-account-issuer.js';
import { isStatusError } from './errors/status-error.js';
import { createServiceAllocator, firstServiceIP, type ServiceAllocator } from './apis/core/v1/service-allocation.js';
import { createObjectStore } from './storage/object-store.js';
import { createCacher } from './storage/cacher/index.js';
import { createFeatureGates } from './features/feature-gates.js';

export interface RunningServer {
  readonly url: string;
  readonly kubeconfigPath: string;
  /** The requests being served; for the fatal log line. */
  readonly inFlight: InFlight;
  /**
   * Graceful termination (server/shutdown.ts): /readyz fails, requests are served
   * for --shutdown-delay-duration, then drained, and storage closes. Every step is
   * bounded; clean is false when one overran or failed.
   */
  close(): Promise<{ readonly clean: boolean }>;
}

export interface StartHooks {
  /** Called as soon as requests can arrive, so a crash during start names them too. */
  readonly onListening?: (inFlight: InFlight) => void;
}

export async function startServer(options: Options, files: ValidatedFiles, logger: Logger, hooks: StartHooks = {}): Promise<RunningServer> {
  // The one FeatureGates of this server, handed to everything a gate changes.
  const featureGates = createFeatureGates(options.featureGates);
  // --authentication-config is read and checked before anything is written: a bad file is one start line.
  const authenticationConfig =
    options.authenticationConfigFile === undefined
      ? undefined
      : await loadAuthenticationConfig({ file: options.authenticationConfigFile, anonymousFlagSet: options.anonymousAuthFlagSet, disallowedIssuers: [options.serviceAccount.issuer] });
  const jwtAuthenticators = authenticationConfig === undefined ? undefined : createAuthenticationConfigAuthenticator(authenticationConfig);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const url = serverUrlFor({ bindAddress: options.bindAddress, port: options.securePort });
  const certs = await prepareCertificates({ options, files, serverUrl: url });

  const kv = await openKv({ options, logger });
  // --watch-cache (default on): gets, lists and watches served from memory (storage/cacher/).
  const storage = options.watchCache.enabled
    ? createCacher({
        backend: createObjectStore({ kv }),
        historyWindowMs: options.watchCache.historyWindowMs,
        maxHistoryEvents: options.watchCache.maxEvents,
        // etcd 3.4 before 3.4.31 (Debian's 3.4.23) can report progress ahead of its
        // events, so a consistent read from the cache could miss the last write.
        consistentReadsFromCache: options.storageBackend !== 'etcd3',
        onBackendError: (err, resource) => logger.warn({ err, resource }, 'watch cache: backend read failed, retrying'),
      })
    : createObjectStore({ kv });
  const metrics = createApiMetrics();
  recordFeatureGates(metrics, featureGates);
  // Authorization from the flags or --authorization-config (server/authorization.ts):
  // one mode decides for the filter chain, answers the access reviews and lists rules.
  const authorization = await createServerAuthorization({ options, files, storage, logger, metrics: metrics.registry, apiServerId: apiserverIdentity(hostname()) });
  const authorizer = authorization.mode.authorize;
  // Service-account tokens: signed by the configured (or generated) key, served by serviceaccounts/token.
  const tokenKeys = createTokenKeys({
    issuer: options.serviceAccount.issuer,
    apiAudiences: options.serviceAccount.apiAudiences,
    signingKeyPem: files.serviceAccountSigningKeyPem ?? ensureSigningKeyPem({ certDir: options.certDir }),
    ...(files.serviceAccountKeyPem === undefined ? {} : { extraVerificationPem: files.serviceAccountKeyPem }),
  });
  const namespaceCache = createNamespaceCache({
    storage,
    prefix: collectionPrefix(namespacesDefinition, {}),
    // With the watch cache, admission's lookups are its "Any" reads; without, a map of its own.
    watchCache: options.watchCache.enabled,
    onError: (err) => logger.warn({ err }, 'namespace cache: watch ended, re-listing'),
  });
  // Services take cluster IPs and node ports from the configured ranges.
  const serviceAllocator = createServiceAllocator({
    storage,
    clusterIPRange: options.serviceClusterIPRange,
    nodePortRange: options.serviceNodePortRange,
  });
  /** A core/v1 object through the registry (declared below; used only once requests arrive); undefined when absent. */
  const coreLookup = async (resource: string, namespace: string, name: string) => {
    try {
      return await registry.store({ group: '', version: 'v1', resource }).get({ namespace, name });
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  // The request authenticator, also asked by TokenReview (authentication/v1).
  const authenticator = createAuthenticator({
    clientCaPem: certs.clientCa,
    ...(files.tokenAuthUsers === undefined ? {} : { staticTokens: files.tokenAuthUsers }),
    serviceAccountTokens: createServiceAccountAuthenticator({
      keys: tokenKeys,
      lookup: coreLookup,
      legacyLookup: options.serviceAccount.lookup,
      // kube's legacy validator labels the token's Secret through the loopback client.
      markLegacyTokenUsed: (secret, label) => setSecretLabel(registry.store({ group: '', version: 'v1', resource: 'secrets' }), secret, label),
      onLabelError: (err, secret) => logger.warn({ err, secret }, 'Failed to label legacy service account token with last-used date'),
    }),
    ...(options.oidc === undefined ? {} : { oidc: createOidcAuthenticator({ ...options.oidc, caPem: files.oidcCaPem }) }),
    // The file's JWT issuers take the --oidc-* slot: kube refuses both at once.
    ...(jwtAuthenticators === undefined ? {} : { oidc: jwtAuthenticators.authenticate }),
    ...(options.enableBootstrapTokenAuth ? { bootstrapTokens: createBootstrapTokenAuthenticator({ lookup: (name) => coreLookup('secrets', 'kube-system', name) }) } : {}),
  });
  // The served set: the built-in groups now; custom resources join and leave it at run time.
  const catalog = createCatalog(
    builtinApis({
      tokenIssuer: tokenKeys,
      serviceAllocator,
      authorizer,
      rulesResolver: authorization.mode.rulesFor,
      escalation: authorization.escalation,
      authentication: { authenticator, apiAudiences: tokenKeys.apiAudiences },
      hpa: { scaleToZero: featureGates.enabled('HPAScaleToZero') },
      // Bindings write pods through the registry (declared below; used only once requests arrive).
      podStore: () => registry.store(podsDefinition),
      podDisruptionBudgetStore: () => registry.store(podDisruptionBudgets),
      components: [storageComponent(options.storageBackend, () => storage.ping())],
      kubelet: {
        preferredAddressTypes: options.kubelet.preferredAddressTypes,
        defaultPort: DEFAULT_KUBELET_CLIENT.defaultPort,
        ...(files.kubeletCertPem === undefined || files.kubeletKeyPem === undefined ? {} : { clientCert: Buffer.from(files.kubeletCertPem), clientKey: Buffer.from(files.kubeletKeyPem) }),
        ...(files.kubeletCaPem === undefined ? {} : { ca: Buffer.from(files.kubeletCaPem) }),
      },
    }),
  );
  const registry = createRegistry({
    storage,
    catalog,
    // kube's Priority plugin reads the other classes (one global default, system classes kept).
    admission: createAdmissionChain({
      plugins: [
        ...defaultAdmissionPlugins(),
        priorityAdmissionFromStorage(storage),
        podResizeAdmissionFromStorage(storage),
        // kubeadm enables NodeRestriction beside the Node mode; kapi does the same.
        ...(authorization.nodeEnabled ? [nodeRestrictionFromStorage(storage, authorizer)] : []),
      ],
    }),
    clock: () => new Date(),
    lookup: namespaceCache,
  });

  const app = createApp({
    tls: { key: certs.servingKey, cert: certs.servingCert, clientCa: certs.clientCa },
    logger,
    filters: createChain({
      authenticate: createRequestAuthenticator({
        authenticator,
        onRejected: (err) => logger.info({ reason: err.message }, 'Unable to authenticate the request'),
        // kube's warning for a legacy token Secret listed in its account (still auto-generated).
        onWarnings: (request: FastifyRequest, warnings) => request.kapi.warnings.push(...warnings),
        // The file's `anonymous` section, else --anonymous-auth (conditions limit it to paths).
        anonymous: authenticationConfig?.config.anonymous ?? { enabled: options.anonymousAuth, conditions: [] },
      }),
      authorize: createRequestAuthorizer(authorizer),
      authorizer,
      anonymous: options.anonymousAuth,
      requestTimeoutMs: options.requestTimeoutMs,
      renderStatus: encodeStatusFor,
    }),
    renderStatus: encodeStatusFor,
    metrics,
    // Receiving a request (its body included) is bounded like serving it.
    requestTimeoutMs: options.requestTimeoutMs,
  });

  let bootstrapped = false;
  let shuttingDown = false;
  const storageCheck = checkOf(options.storageBackend === 'etcd3' ? 'etcd' : 'sqlite', () => storage.ping());
  registerHealthRoutes(app, {
    livez: [checkOf('ping', () => undefined), checkOf('log', () => undefined)],
    readyz: [
      checkOf('ping', () => undefined),
      checkOf('log', () => undefined),
      storageCheck,
      checkOf('poststarthook/default-namespaces', () => {
        if (!bootstrapped) throw new Error('default namespaces not created yet');
      }),
      checkOf('shutdown', () => {
        if (shuttingDown) throw new Error('shutting down');
      }),
    ],
    healthz: [checkOf('ping', () => undefined), checkOf('log', () => undefined), storageCheck],
  });
  registerVersionRoute(app, { gitCommit: process.env.KAPI_GIT_COMMIT ?? 'unknown', buildDate: process.env.KAPI_BUILD_DATE ?? '1970-01-01T00:00:00Z' });
  registerMetricsRoute(app, metrics);
  registerServiceAccountIssuerRoutes(app, { keys: tokenKeys, serverUrl: url });
  registerDiscoveryRoutes(app, { catalog, serverAddress: new URL(url).host });
  const openapi = createOpenApi({ catalog });
  registerOpenApiRoutes(app, openapi);
  installResources(app, {
    registry,
    minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
    featureGates,
    responseCompression: featureGates.enabled('APIResponseCompression'),
  });

  const inFlight = trackInFlight(app);
  // No request is decided before RBAC has read the policy (kube waits for its informers).
  await authorization.synced;
  await app.listen({ port: options.securePort, host: options.bindAddress });
  hooks.onListening?.(inFlight);
  // Everything below is ensured (server/ensure.ts): a restart, a start after a
  // crash part way through this list, and replicas starting together all pass.
  await bootstrapNamespaces(registry);
  await bootstrapPriorityClasses(registry);
  await bootstrapFlowControl(registry);
  // The default RBAC policy (kube's rbac/bootstrap-roles hook); its timing is logged as a start-up cost.
  const rbacStarted = performance.now();
  const rbac = await bootstrapRbac(registry);
  logger.info(
    { created: rbac.created.length, updated: rbac.updated.length, recreated: rbac.recreated.length, protected: rbac.protected.length, ms: Math.round(performance.now() - rbacStarted) },
    'default rbac policy ensured',
  );
  const kubernetesService = await bootstrapKubernetesService(registry, {
    clusterIP: firstServiceIP(options.serviceClusterIPRange),
    securePort: options.securePort,
    advertiseAddress: options.advertiseAddress,
    allocator: serviceAllocator,
    logger,
  });
  if (kubernetesService.service !== 'unchanged' || kubernetesService.endpoints === 'repaired') {
    logger.info(kubernetesService, 'kubernetes service ensured');
  }
  await repairServiceAllocations(registry, serviceAllocator, logger);
  // kube-apiserver's own objects: the authentication ConfigMap, the kubernetes ServiceCIDR, its identity Lease.
  const systemObjects = await bootstrapSystemObjects(registry, { clientCaPem: certs.clientCa, serviceCIDR: options.serviceClusterIPRange.cidr, logger });
  if (systemObjects.authentication !== 'unchanged' || systemObjects.serviceCIDR !== 'unchanged') logger.info(systemObjects, 'system objects ensured');
  const identityLease = await startIdentityLease(registry, { logger });
  // kube-public/cluster-info for `kubeadm join` (its signatures are the bootstrap signer's).
  const clusterInfo = await ensureClusterInfo(registry, { serverUrl: url, caPem: certs.servingCa });
  if (clusterInfo !== 'unchanged') logger.info({ action: clusterInfo }, 'cluster-info ensured');
  // kube re-reads the file while it runs; a bad or unreachable new configuration leaves the last good one serving.
  const stopWatchingAuthenticationConfig =
    authenticationConfig === undefined || jwtAuthenticators === undefined || options.authenticationConfigFile === undefined
      ? undefined
      : watchAuthenticationConfig({
          file: options.authenticationConfigFile,
          authenticator: jwtAuthenticators,
          initialData: authenticationConfig.data,
          disallowedIssuers: [options.serviceAccount.issuer],
          intervalMs: 1000,
          onReloaded: () => logger.info('reloaded authentication config'),
          onError: (message) => logger.error({ reason: message }, 'authentication config not reloaded'),
        });
  const runControllers = () =>
    startControllers({
      registry,
      logger,
      rootCaPem: certs.servingCa,
      controllers: options.controllers,
      legacyTokenSigner: (claims) => tokenKeys.issueLegacy(claims),
    });
  // Replicas on one etcd run the controllers in one of them at a time (kube-controller-manager's --leader-elect).
  const controllers =
    options.leaderElect && options.storageBackend === 'etcd3'
      ? startLeaderElection({ registry, logger, lead: runControllers })
      : runControllers();
  bootstrapped = true;
  logger.info({ url, kubeconfig: certs.kubeconfigPath }, 'kapi ready');
  // The OpenAPI documents (about 0.1 s for every built-in kind) are built right after
  // ready rather than before: clients that need them (apply, explain) come after discovery.
  setImmediate(() => openapi.current());

  const bounds = shutdownBounds({ shutdownDelayMs: options.shutdownDelayMs, requestTimeoutMs: options.requestTimeoutMs });
  return {
    url,
    kubeconfigPath: certs.kubeconfigPath,
    inFlight,
    close: () =>
      runShutdown(
        [
          {
            name: 'readyz fails',
            run: () => {
              shuttingDown = true;
              if (bounds.delayMs > 0) logger.info({ delayMs: bounds.delayMs }, 'readyz fails; still serving for --shutdown-delay-duration');
            },
          },
          { name: 'shutdown delay', run: () => new Promise((r) => setTimeout(r, bounds.delayMs)) },
          { name: 'stop watching authentication config', run: () => stopWatchingAuthenticationConfig?.() },
          // Controllers are clients: they stop before the server they talk to.
          { name: 'stop controllers', run: () => controllers.stop() },
          { name: 'stop identity lease renewals', run: () => identityLease.stop() },
          { name: 'stop accepting, end watches', run: () => inFlight.beginDrain() },
          {
            name: 'drain in-flight requests',
            run: async () => {
              const left = await inFlight.drained(bounds.drainMs);
              if (left > 0) logger.warn({ left, requests: inFlight.snapshot().requests }, 'requests still in flight after the drain; cutting them');
            },
          },
          { name: 'close connections', run: () => inFlight.destroyConnections() },
          { name: 'close http server', boundMs: bounds.closeMs, run: () => app.close() },
          { name: 'close namespace cache', run: () => namespaceCache.close() },
          { name: 'close authorization', run: () => authorization.close() },
          { name: 'close storage', boundMs: bounds.closeMs, run: () => storage.close() },
        ],
        logger,
      ),
  };
}

export async function main(argv: string[]): Promise<void> {
  let options: Options;
  let files: ValidatedFiles;
  try {
    options = parseOptions(argv);
    if (options.help) {
      process.stdout.write(helpText());
      return;
    }
    files = await validateFiles(options);
    checkAuthorizationFiles(options);
  } catch (err) {
    if (err instanceof OptionsError) {
      // One line, however many problems: scripts and supervisors show the last line.
      process.stderr.write(`kapi: ${err.problems.join('; ')}\n`);
      process.exit(1);
    }
    throw err;
  }
  // Asynchronous writes: a log line per request must not block the event loop on
  // stdout. The fatal paths flush it synchronously before they exit.
  const destination = pino.destination({ dest: 1, sync: false });
  const logger = pino({ level: options.verbosity >= 4 ? 'debug' : 'info', base: { component: 'kapi' } }, destination);
  // component-base warns (klog) for every GA or deprecated gate a command line sets.
  for (const warning of options.featureGateWarnings) logger.warn(warning);
  let inFlight: InFlight | undefined;
  const fatal: FatalOptions = {
    logger,
    flushSync: () => destination.flushSync(),
    inFlight: () => inFlight?.snapshot() ?? { requests: [], total: 0 },
  };
  installFatalHandlers(fatal);

  let stopping = false;
  let server: RunningServer | undefined;
  const bounds = shutdownBounds({ shutdownDelayMs: options.shutdownDelayMs, requestTimeoutMs: options.requestTimeoutMs });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      dieWith(fatal, { signal }, 'second signal while stopping: exiting at once');
    }
    stopping = true;
    logger.info({ signal }, 'kapi stopping');
    // Every step is bounded already; this covers a bug in the bounds themselves.
    const budgetMs = lastResortMs(bounds);
    setTimeout(() => dieWith(fatal, { signal, budgetMs }, 'shutdown did not finish in time: exiting'), budgetMs).unref();
    if (server === undefined) {
      // Still starting: nothing is ensured half-way in a way the next start cannot
      // finish (server/ensure.ts), so there is nothing to wait for.
      logger.info('stopped during start');
      destination.flushSync();
      process.exit(0);
    }
    server.close().then(
      ({ clean }) => {
        logger.info({ clean }, 'kapi stopped');
        destination.flushSync();
        process.exit(0);
      },
      (err: unknown) => dieWith(fatal, { err }, 'error while stopping'),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    server = await startServer(options, files, logger, { onListening: (tracker) => (inFlight = tracker) });
  } catch (err) {
    // bin/kapi.js prints the reason and exits; what was logged before it must not be lost.
    destination.flushSync();
    throw err;
  }
}

/**
 * Matches the allocation records with the services that hold them (kube's repair
 * controllers): records left by a crash between taking a value and storing its
 * service go back to the pool, values of services stored without a record (an
 * older data dir) get one.
 */
async function repairServiceAllocations(registry: ReturnType<typeof createRegistry>, allocator: ServiceAllocator, logger: Logger): Promise<void> {
  const services = registry.store(servicesDefinition);
  const list = await services.list({});
  const lookup = async (namespace: string, name: string) => {
    try {
      return await services.get({ namespace, name });
    } catch (err) {
      if (isStatusError(err) && err.reason === 'NotFound') return undefined;
      throw err;
    }
  };
  const { dropped, recorded } = await allocator.repair(list.items, { lookup });
  if (dropped + recorded > 0) logger.info({ dropped, recorded }, 'service allocations repaired');
}
