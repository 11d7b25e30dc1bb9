// managedFields: the slot server-side apply fills (the field sets each manager
// owns, from the request's fieldManager). Until apply/ computes field sets, the
// stored entries are carried over by the system-metadata step and nothing is
// recorded here.
import type { WriteStep } from '../state.js';

export const managedFields: WriteStep = {
  name: 'managed fields',
  run() {},
};
