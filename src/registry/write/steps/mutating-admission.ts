// Mutating admission on the view the client addressed (a Scale for scale writes).
import { attributesOf, type WriteStep } from '../state.js';

export const mutatingAdmission: WriteStep = {
  name: 'mutating admission',
  async run(state) {
    await state.ctx.admission.admit(attributesOf(state, state.view), state.ctx.lookup);
  },
};
