// managedFields: the slot server-side apply fills (the field sets each manager
// owns, from the request's fieldManager). Until apply/ computes field sets, the
// stored entries are carried over by the system-metadata step and nothing is
// recorded here. kube records an entry in the version the request was sent in
// (managedFields[].apiVersion, field paths of that version's schema): this step
// will read state.object through ctx.codec.fromStorage, as validate does for the
// schema's causes, and record apiVersionOf(ctx.codec.served).
import type { WriteStep } from '../state.js';

export const managedFields: WriteStep = {
  name: 'managed fields',
  run() {},
};
