// The storage codec's way in (store/version-codec.ts): a view of the parent's
// kind, defaulted in the version the client sent, becomes the storage version, and
// gets that version's defaults. From here on the steps run the kind's strategy,
// which is written for the stored version (kube's internal version: kube converts
// right after decoding and defaulting, and runs admission and the strategy on the
// result). The stored version's defaults are those kube applies whenever it decodes
// the object from storage, so every read of it already has them; here they are
// applied once, to what is stored. A Scale view is the same in every version.
import { thaw } from '../../store/metadata.js';
import { viewIsParentKind, type WriteState, type WriteStep } from '../state.js';

export const convert: WriteStep = {
  name: 'convert',
  run(state) {
    // Most kinds are served in their storage version: nothing to wait for.
    if (!state.ctx.codec.converts || !viewIsParentKind(state)) return;
    return toStorageVersion(state);
  },
};

async function toStorageVersion(state: WriteState): Promise<void> {
  const { codec, definition } = state.ctx;
  const converted = await codec.toStorage(state.view);
  // The steps below change it in place; a conversion may answer an object it shares.
  const view = Object.isFrozen(converted) ? thaw(converted) : converted;
  definition.strategy.defaults?.(view, state.context);
  state.view = view;
  state.object = view;
}
