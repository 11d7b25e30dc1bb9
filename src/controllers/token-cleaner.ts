// kube-controller-manager's token-cleaner-controller (tokencleaner; off by default):
// deletes bootstrap token Secrets (type bootstrap.kubernetes.io/token in
// kube-system) once their `expiration` has passed, an unparseable expiration
// counting as passed (pkg/controller/bootstrap/tokencleaner.go). The delete carries
// the Secret's uid as a precondition, so a Secret re-created under the same name is
// never removed by a decision about the old one. A token that expires later is
// looked at again at that moment (kube's AddAfter) through `rechecks`, not by
// polling. server/controllers.ts runs sync(name) for each token Secret event.
import type { KubeObject } from '../schema/object.js';
import { BOOTSTRAP_TOKEN_SECRET_TYPE, TOKEN_SECRET_NAMESPACE, tokenExpiration } from './bootstrap-tokens.js';
import type { Rechecks } from './recheck.js';

/** What the controller needs from the registry; each method is one API call. */
export interface TokenCleanerClient {
  /** kube-system/<name>; undefined when absent. */
  getSecret(name: string): Promise<KubeObject | undefined>;
  /** DELETE with a uid precondition; NotFound and Conflict (a failed precondition) are success. */
  deleteSecret(name: string, uid: string | undefined): Promise<void>;
}

export type TokenCleanerResult = 'Absent' | 'NotToken' | 'Deleted' | 'NoExpiration' | 'Scheduled';

export interface TokenCleaner {
  sync(name: string): Promise<TokenCleanerResult>;
}

export interface TokenCleanerOptions {
  readonly client: TokenCleanerClient;
  readonly now: () => Date;
  /** Keyed by Secret name; asked to run sync(name) again at the expiration. */
  readonly rechecks: Pick<Rechecks, 'at' | 'cancel'>;
}

export function createTokenCleaner(opts: TokenCleanerOptions): TokenCleaner {
  const { client, rechecks } = opts;
  return {
    async sync(name) {
      const secret = await client.getSecret(name);
      if (secret === undefined || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || secret.metadata.namespace !== TOKEN_SECRET_NAMESPACE) {
        rechecks.cancel(name);
        return secret === undefined ? 'Absent' : 'NotToken';
      }
      const expiration = tokenExpiration(secret, opts.now());
      if (expiration.expired) {
        rechecks.cancel(name);
        await client.deleteSecret(name, secret.metadata.uid);
        return 'Deleted';
      }
      if (expiration.at === undefined) {
        rechecks.cancel(name);
        return 'NoExpiration';
      }
      rechecks.at(name, expiration.at);
      return 'Scheduled';
    },
  };
}
