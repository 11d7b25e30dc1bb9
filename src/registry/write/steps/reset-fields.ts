// What of the request survives. A main-resource write clears the kind's declared
// create reset fields (status a client may not choose) or keeps the stored value
// of its update reset fields; a status-like subresource changes only its paths of
// the stored object (or what its copyFromRequest takes); a scale write changes
// only the replicas its Scale carries.
import { methodNotSupported } from '../../../errors/status-error.js';
import { cloneJson } from '../../../schema/object.js';
import { getField, setField } from '../../../schema/field-path.js';
import { thaw } from '../../store/metadata.js';
import { applyScale } from '../../store/subresource-scale.js';
import type { WriteStep } from '../state.js';

export const resetFields: WriteStep = {
  name: 'reset fields',
  run(state) {
    const { ctx, current, sub } = state;
    const reset = ctx.definition.strategy.resetFields;
    if (sub === undefined) {
      state.object = state.view;
      if (current === undefined) for (const p of reset?.create ?? []) setField(state.object, p, undefined);
      else for (const p of reset?.update ?? []) setField(state.object, p, cloneJson(getField(current, p)));
      return;
    }
    // Subresource writes always have a stored parent (pipeline.ts never creates through one).
    const next = thaw(current!);
    const { scale, path, paths, copyFromRequest } = sub.declaration;
    if (scale !== undefined) applyScale(next, state.view, scale);
    else if (path !== undefined) setField(next, path, cloneJson(getField(state.view, path)));
    else if (paths !== undefined) for (const p of paths) setField(next, p, cloneJson(getField(state.view, p)));
    else if (copyFromRequest !== undefined) copyFromRequest(next, state.view);
    else throw methodNotSupported(ctx.resource, 'update');
    state.object = next;
  },
};
