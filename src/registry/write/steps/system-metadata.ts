// The metadata the store owns (rest.BeforeCreate / BeforeUpdate): type fields
// (admission may have touched them), uid and creationTimestamp on create, a name
// from generateName, and on update what can never change, carried over from the
// stored object.
import { carryUpdateMetadata, fillCreateMetadata, generateName, setTypeMeta } from '../../store/metadata.js';
import { viewIsParentKind, type WriteStep } from '../state.js';

export const systemMetadata: WriteStep = {
  name: 'system metadata',
  run(state) {
    if (!viewIsParentKind(state)) return;
    const { ctx, view } = state;
    setTypeMeta(view, ctx.definition);
    if (state.current === undefined) {
      fillCreateMetadata(view, { now: state.context.now, uid: ctx.uid() });
      if ((view.metadata.name ?? '') === '' && (view.metadata.generateName ?? '') !== '') {
        view.metadata.name = generateName(view.metadata.generateName!, ctx.random);
        state.generatedName = true;
      }
    } else {
      carryUpdateMetadata(view, state.current);
    }
  },
};
