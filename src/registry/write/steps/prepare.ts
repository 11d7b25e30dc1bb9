// The kind's own system fields: prepareForCreate (the status a new object starts
// with, generation 1) or prepareForUpdate (generation moves with spec). A scale
// write is a parent update (kube's scale REST calls the parent's Update), so it
// runs the parent's prepareForUpdate; status-like subresources run their own, if any.
import type { WriteStep } from '../state.js';

export const prepare: WriteStep = {
  name: 'prepare',
  run(state) {
    const { strategy } = state.ctx.definition;
    const { current, sub } = state;
    if (current === undefined) {
      strategy.prepareForCreate?.(state.object, state.context);
      return;
    }
    if (sub !== undefined && sub.declaration.scale === undefined) {
      sub.declaration.prepareForUpdate?.(state.object, current, state.context);
      return;
    }
    strategy.prepareForUpdate?.(state.object, current, state.context);
  },
};
