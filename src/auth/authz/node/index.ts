// The Node authorization mode as the server runs it: a graph of which objects each
// node's pods use, fed by watches of storage (graph-populator.ts), and the mode
// that answers kubelets' requests from it (node-authorizer.ts). A decision reads a
// few map entries and never storage; `synced` resolves once every watched
// collection has been listed, so the caller can hold requests until then.
import type { Storage } from '../../../storage/storage.js';
import type { AuthorizerMode } from '../authorizer.js';
import { feedNodeGraph, type NodeGraphPrefixes } from './graph-populator.js';
import { createNodeAuthorizer, type NodeRule } from './node-authorizer.js';
import { NodeGraph } from './node-graph.js';

export type { NodeGraphPrefixes } from './graph-populator.js';
export type { NodeRule } from './node-authorizer.js';
export { createNodeAuthorizer, NODE_RULES_UNSUPPORTED } from './node-authorizer.js';
export { NodeGraph } from './node-graph.js';
export { nodeIdentity, type NodeIdentity } from './node-identity.js';

export interface NodeAuthorizationOptions {
  /** The server's object storage (the watch cache when enabled). */
  readonly storage: Storage;
  readonly prefixes: NodeGraphPrefixes;
  readonly nodeRules: readonly NodeRule[];
  /** Delay before re-listing a collection whose watch broke; default 1s. */
  readonly retryMs?: number;
  readonly onError?: (err: unknown) => void;
}

export interface NodeAuthorization {
  readonly mode: AuthorizerMode;
  readonly graph: NodeGraph;
  readonly synced: Promise<void>;
  close(): void;
}

export function createNodeAuthorization(opts: NodeAuthorizationOptions): NodeAuthorization {
  const graph = new NodeGraph();
  const feed = feedNodeGraph({
    graph,
    storage: opts.storage,
    prefixes: opts.prefixes,
    ...(opts.retryMs === undefined ? {} : { retryMs: opts.retryMs }),
    ...(opts.onError === undefined ? {} : { onError: opts.onError }),
  });
  return {
    mode: createNodeAuthorizer({ graph, nodeRules: opts.nodeRules }),
    graph,
    synced: feed.synced,
    close: () => feed.close(),
  };
}
