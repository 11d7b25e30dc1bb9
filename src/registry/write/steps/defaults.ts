// Defaulting, first: kube-apiserver defaults while decoding, so mutating
// admission already sees the defaulted object. Runs on every view of the kind
// (create, update, patch, status); a Scale has no defaults of its own.
import { viewIsParentKind, type WriteStep } from '../state.js';

export const defaults: WriteStep = {
  name: 'defaults',
  run(state) {
    if (viewIsParentKind(state)) state.ctx.definition.strategy.defaults?.(state.view, state.context);
  },
};
