// Validating admission, last before the store: it sees the object as it will be
// stored, in the view the client addressed.
import { attributesOf, viewOf, type WriteStep } from '../state.js';

export const validatingAdmission: WriteStep = {
  name: 'validating admission',
  async run(state) {
    await state.ctx.admission.validate(attributesOf(state, viewOf(state.sub, state.object)), state.ctx.lookup);
  },
};
