// The kind's own permission check on what a write would store, beyond the verb the
// filter chain authorized: RBAC's escalation prevention (a Role may grant only what
// its author holds, a binding needs `bind` or the role's permissions). In kube it
// wraps the REST storage (policybased), so it runs after mutating admission and
// before the object's system fields, preparation and validation: a refused write
// is 403 before any 422. In-process writes name no user and are not checked, as
// kube's loopback client is system:masters.
import type { WriteStep } from '../state.js';

export const authorizeWrite: WriteStep = {
  name: 'authorize write',
  async run(state) {
    const check = state.ctx.definition.strategy.authorizeWrite;
    if (check === undefined || state.sub !== undefined || state.context.user === undefined) return;
    await check(state.object, state.current, state.context);
  },
};
