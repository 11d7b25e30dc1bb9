// The RBAC policy as the server runs it: one index fed by four mirrors of the watch
// cache (roles, cluster roles and both kinds of binding). `synced` resolves once all
// four have listed, so the server answers no request before RBAC can decide; after
// that a new binding decides within the watch's delivery time (milliseconds), on
// every replica, since each watches its own cache.
import type { KubeObject } from '../../../schema/object.js';
import type { Storage } from '../../../storage/storage.js';
import type { AuthorizerMode } from '../authorizer.js';
import { createMirror, type Mirror } from '../mirror.js';
import { PolicyIndex } from './policy-index.js';
import { createRbacMode } from './rbac.js';

export interface RbacPrefixes {
  readonly roles: string;
  readonly clusterRoles: string;
  readonly roleBindings: string;
  readonly clusterRoleBindings: string;
}

interface MirrorHandlers {
  readonly replace: (objects: Iterable<KubeObject>) => void;
  readonly put: (obj: KubeObject) => void;
  readonly remove: (obj: KubeObject) => void;
}

export interface RbacPolicy {
  readonly index: PolicyIndex;
  readonly mode: AuthorizerMode;
  readonly synced: Promise<void>;
  close(): void;
}

export function createRbacPolicy(opts: { storage: Storage; prefixes: RbacPrefixes; onError?: (err: unknown) => void }): RbacPolicy {
  const index = new PolicyIndex();
  const mirror = (prefix: string, on: MirrorHandlers): Mirror =>
    createMirror({
      storage: opts.storage,
      prefix,
      onReplace: (objects) => on.replace(objects.values()),
      onUpsert: (_key, o) => on.put(o),
      onDelete: (_key, o) => on.remove(o),
      ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    });
  const mirrors = [
    mirror(opts.prefixes.clusterRoles, { replace: (o) => index.replaceClusterRoles(o), put: (o) => index.putClusterRole(o), remove: (o) => index.deleteClusterRole(o) }),
    mirror(opts.prefixes.roles, { replace: (o) => index.replaceRoles(o), put: (o) => index.putRole(o), remove: (o) => index.deleteRole(o) }),
    mirror(opts.prefixes.clusterRoleBindings, { replace: (o) => index.replaceClusterRoleBindings(o), put: (o) => index.putClusterRoleBinding(o), remove: (o) => index.deleteClusterRoleBinding(o) }),
    mirror(opts.prefixes.roleBindings, { replace: (o) => index.replaceRoleBindings(o), put: (o) => index.putRoleBinding(o), remove: (o) => index.deleteRoleBinding(o) }),
  ];
  return {
    index,
    mode: createRbacMode(index),
    synced: Promise.all(mirrors.map((m) => m.synced)).then(() => undefined),
    close() {
      for (const m of mirrors) m.close();
    },
  };
}
