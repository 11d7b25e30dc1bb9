// Validation: ObjectMeta first, then the kind's rules (kube-apiserver's message
// order), one Invalid with a cause per bad field. An update runs validateUpdate,
// or validate when the kind has no update rules; a status-like subresource may
// declare rules of its own (kube's separate status strategies).
import { invalid } from '../../../errors/status-error.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.js';
import { writeName, type WriteStep } from '../state.js';

export const validate: WriteStep = {
  name: 'validate',
  run(state) {
    const def = state.ctx.definition;
    const { object, current, sub, context } = state;
    let errs;
    if (current === undefined) {
      errs = [
        ...validateObjectMeta(object, { namespaced: def.scope === 'Namespaced', nameValidation: def.nameValidation, isCreate: true }),
        ...(def.strategy.validate?.(object, context) ?? []),
      ];
    } else {
      const own = sub !== undefined && sub.declaration.scale === undefined ? sub.declaration.validateUpdate : undefined;
      const update = own ?? def.strategy.validateUpdate;
      errs = [
        ...validateObjectMetaUpdate(object, current),
        ...(update !== undefined ? update(object, current, context) : (def.strategy.validate?.(object, context) ?? [])),
      ];
    }
    if (errs.length > 0) throw invalid({ group: def.group, kind: def.kind }, writeName(state), errs);
  },
};
