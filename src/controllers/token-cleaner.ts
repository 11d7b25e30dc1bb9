// kube-controller-manager's token-cleaner-controller (tokencleaner; off by default):
// deletes bootstrap token Secrets (type bootstrap.kubernetes.io/token in
// kube-system) once their `expiration` has passed, an unparseable expiration
// counting as passed (pkg/controller/bootstrap/tokencleaner.go). The delete carries
// the Secret's uid as a precondition, so a Secret re-created under the same name is
// never removed by a decision about the old one. A token that expires later is
// looked at again at that moment (kube's AddAfter): sync answers `recheckAt`, which
// server/controllers.ts hands to the runner as a delayed requeue, not by polling.
// server/controllers.ts runs sync(name) for each token Secret event.
import type { KubeObject } from '../schema/object.js';
import { BOOTSTRAP_TOKEN_SECRET_TYPE, TOKEN_SECRET_NAMESPACE, tokenExpiration } from './bootstrap-tokens.js';

/** What the controller needs from the registry; each method is one API call. */
export interface TokenCleanerClient {
  /** kube-system/<name> as the watch cache has it (a lister read); undefined when absent. */
  getSecret(name: string): Promise<KubeObject | undefined>;
  /** DELETE with a uid precondition; NotFound and Conflict (a failed precondition) are success. */
  deleteSecret(name: string, uid: string | undefined): Promise<void>;
}

export type TokenCleanerResult = 'Absent' | 'NotToken' | 'Deleted' | 'NoExpiration' | 'Scheduled';

export interface TokenCleanerSync {
  readonly result: TokenCleanerResult;
  /** Sync this name again then (its expiration); absent: only a change to the Secret needs another look. */
  readonly recheckAt?: Date;
}

export interface TokenCleaner {
  sync(name: string): Promise<TokenCleanerSync>;
}

export interface TokenCleanerOptions {
  readonly client: TokenCleanerClient;
  readonly now: () => Date;
}

export function createTokenCleaner(opts: TokenCleanerOptions): TokenCleaner {
  const { client } = opts;
  return {
    async sync(name) {
      const secret = await client.getSecret(name);
      if (secret === undefined || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || secret.metadata.namespace !== TOKEN_SECRET_NAMESPACE) {
        return { result: secret === undefined ? 'Absent' : 'NotToken' };
      }
      const expiration = tokenExpiration(secret, opts.now());
      if (expiration.expired) {
        await client.deleteSecret(name, secret.metadata.uid);
        return { result: 'Deleted' };
      }
      if (expiration.at === undefined) return { result: 'NoExpiration' };
      return { result: 'Scheduled', recheckAt: expiration.at };
    },
  };
}
