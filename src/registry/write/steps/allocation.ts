// Values from a pool shared by all objects of the kind (service cluster IPs and
// node ports), reserved before the write; pipeline.ts commits them after the
// write lands and hands them back when it fails or is retried. Main-resource
// writes only: no subresource changes what a pool holds.
import { NO_ALLOCATION } from '../../allocation.js';
import type { WriteStep } from '../state.js';

export const allocation: WriteStep = {
  name: 'allocation',
  async run(state) {
    const allocator = state.ctx.allocator;
    if (allocator === undefined || state.sub !== undefined) return;
    state.allocation = (await allocator.allocate(state.object, state.current, { dryRun: state.context.dryRun })) ?? NO_ALLOCATION;
  },
};
