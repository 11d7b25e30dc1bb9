// Mutating admission on the view the client addressed (a Scale for scale writes),
// in the storage version and named by the request's kind, as kube's plugins see
// its internal object (a webhook would get it converted to the version it asks for).
import { attributesOf, type WriteStep } from '../state.js';

export const mutatingAdmission: WriteStep = {
  name: 'mutating admission',
  async run(state) {
    await state.ctx.admission.admit(attributesOf(state, state.view), state.ctx.lookup);
  },
};
