// kube-controller-manager's bootstrap-signer-controller (bootstrapsigner; off by
// default), after pkg/controller/bootstrap/bootstrapsigner.go: the ConfigMap
// kube-public/cluster-info carries one `jws-kubeconfig-<id>` per bootstrap token
// that may sign (bootstrap-tokens.ts's signingToken), a detached JWS over its
// `kubeconfig` value, so `kubeadm join --token <id>.<secret>` can trust what it
// read anonymously. Signatures of tokens that went, expired or lost the signing
// usage are removed; every other key is left as it is; the write is a PUT with the
// resourceVersion read, so a concurrent writer makes it a Conflict, retried.
// Without a `kubeconfig` value (or without the ConfigMap) nothing is touched, as in
// kube. Kube leaves an expired token's signature until the next resync; here sync
// answers the earliest expiration among the signed tokens as `recheckAt`, a delayed
// requeue of the runner (kube's AddAfter).
import type { KubeObject } from '../schema/object.js';
import { JWS_KEY_PREFIX, KUBECONFIG_KEY, detachedSignature, signingToken, type SigningToken } from './bootstrap-tokens.js';

/** What the controller needs from the registry; each method is one API call. Reads are lister reads (the watch cache). */
export interface BootstrapSignerClient {
  /** kube-public/cluster-info; undefined when absent. */
  getClusterInfo(): Promise<KubeObject | undefined>;
  /** Every Secret in kube-system (the signer filters them). */
  listTokenSecrets(): Promise<KubeObject[]>;
  /** PUT with the resourceVersion read; 'conflict' when it changed or went since (Conflict, NotFound). */
  updateClusterInfo(cm: KubeObject): Promise<'updated' | 'conflict'>;
}

export type BootstrapSignerResult = 'NoConfigMap' | 'NoKubeconfig' | 'Unchanged' | 'Updated' | 'Conflict';

export interface BootstrapSignerSync {
  readonly result: BootstrapSignerResult;
  /** Sync again then: the first signed token's expiration, whose signature must go. */
  readonly recheckAt?: Date;
}

export interface BootstrapSigner {
  sync(): Promise<BootstrapSignerSync>;
}

export interface BootstrapSignerOptions {
  readonly client: BootstrapSignerClient;
  readonly now: () => Date;
}

/** The one queue key of the controller (kube's single-item queue). */
export const SIGNER_KEY = 'cluster-info';

/** A ConfigMap's string data as own entries (a key named __proto__ is data like any other). */
function stringData(cm: KubeObject): [string, string][] {
  const data = cm.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
}

/** One token per id; kube keeps the first it meets and ignores duplicates. */
function signingTokens(secrets: readonly KubeObject[], now: Date): SigningToken[] {
  const byId = new Map<string, SigningToken>();
  for (const secret of secrets) {
    const token = signingToken(secret, now);
    if (token !== undefined && !byId.has(token.id)) byId.set(token.id, token);
  }
  return [...byId.values()];
}

function earliestExpiry(tokens: readonly SigningToken[]): Date | undefined {
  let first: Date | undefined;
  for (const t of tokens) if (t.expiresAt !== undefined && (first === undefined || t.expiresAt < first)) first = t.expiresAt;
  return first;
}

export function createBootstrapSigner(opts: BootstrapSignerOptions): BootstrapSigner {
  const { client } = opts;
  return {
    async sync() {
      const cm = await client.getClusterInfo();
      if (cm === undefined) return { result: 'NoConfigMap' };
      const entries = stringData(cm);
      const content = entries.find(([k]) => k === KUBECONFIG_KEY)?.[1];
      if (content === undefined) return { result: 'NoKubeconfig' };

      const now = opts.now();
      const tokens = signingTokens(await client.listTokenSecrets(), now);
      const expiry = earliestExpiry(tokens);
      const answer = (result: BootstrapSignerResult): BootstrapSignerSync => (expiry === undefined ? { result } : { result, recheckAt: expiry });

      const want = new Map<string, string>();
      for (const t of tokens) want.set(`${JWS_KEY_PREFIX}${t.id}`, await detachedSignature(content, t.id, t.secret));
      const have = new Map(entries.filter(([k]) => k.startsWith(JWS_KEY_PREFIX)));
      const same = have.size === want.size && [...want].every(([k, v]) => have.get(k) === v);
      if (same) return answer('Unchanged');

      // Every key that is not a signature stays, values and all (non-string ones too).
      const data = Object.entries((cm.data ?? {}) as Record<string, unknown>).filter(([k]) => !k.startsWith(JWS_KEY_PREFIX));
      // fromEntries defines own properties: a `__proto__` key stays a key.
      const next: KubeObject = { ...structuredClone(cm), data: Object.fromEntries([...data, ...want]) };
      return answer((await client.updateClusterInfo(next)) === 'updated' ? 'Updated' : 'Conflict');
    },
  };
}
