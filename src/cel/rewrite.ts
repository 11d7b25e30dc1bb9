// Kubernetes functions whose names the base library already uses with other
// semantics (`matches` with JavaScript's backtracking RegExp, `lowerAscii` that
// lowers non-ASCII letters, ...). The base library cannot unregister an overload,
// so before type checking every call to such a name is pointed at kapi's
// implementation, registered as `kapi_<name>`; messages map the name back.
import { allNodes, callParts, type AstNode } from './ast.js';

export const OVERRIDE_PREFIX = 'kapi_';

export function redirectOverrides(root: AstNode, overrides: ReadonlySet<string>): void {
  for (const node of allNodes(root)) {
    const call = callParts(node);
    if (call === undefined || !overrides.has(call.name)) continue;
    (node.args as unknown[])[0] = OVERRIDE_PREFIX + call.name;
  }
}

/** A checker or evaluator message with kapi's internal names turned back into the user's. */
export function userMessage(message: string): string {
  return message.replaceAll(OVERRIDE_PREFIX, '');
}
