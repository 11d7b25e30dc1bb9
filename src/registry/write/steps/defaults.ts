// Defaulting, first: kube-apiserver defaults while decoding, in the version the
// request was sent in, so mutating admission already sees the defaulted object.
// The served version's defaults (a converted version's own; the stored version's
// follow in the convert step). Runs on every view of the kind (create, update,
// patch, status); a Scale has no defaults of its own.
import { viewIsParentKind, type WriteStep } from '../state.js';

export const defaults: WriteStep = {
  name: 'defaults',
  run(state) {
    if (viewIsParentKind(state)) state.ctx.codec.served.strategy.defaults?.(state.view, state.context);
  },
};
