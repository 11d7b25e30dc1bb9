// The kind's normal form before storing (e.g. empty maps dropped).
import type { WriteStep } from '../state.js';

export const canonicalize: WriteStep = {
  name: 'canonicalize',
  run(state) {
    state.ctx.definition.strategy.canonicalize?.(state.object);
  },
};
