// Warning header texts the kind has for a valid object.
import type { WriteStep } from '../state.js';

export const warnings: WriteStep = {
  name: 'warnings',
  run(state) {
    const found = state.ctx.definition.strategy.warnings?.(state.object, state.current, state.context);
    if (found !== undefined) state.warnings.push(...found);
  },
};
