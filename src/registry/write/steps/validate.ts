// Validation: ObjectMeta first, then the schema's causes (required fields, enums,
// list-map and set uniqueness: validation/schema.ts), then the kind's rules
// (kube-apiserver's message order), one Invalid with a cause per bad field. The
// schema layer runs before the kind's rules but a field those rules name keeps
// only their cause. An update runs validateUpdate, or validate when the kind has
// no update rules; a status-like subresource may declare rules of its own (kube's
// separate status strategies). On update, schema causes the stored object already
// had are not reported (ratcheting), so objects stored before a rule stay writable;
// likewise a refused update is judged again against the stored object in today's
// canonical form (quantities, times), which objects stored by an earlier kapi lack.
// Versions: ObjectMeta and the kind's rules judge the object as it will be stored
// (kube validates its internal version: error paths are that version's); the
// schema's causes judge it in the version the request was sent in, read through
// the kind's codec, against that version's schema, as kube's declarative
// validation converts to the request's version (rest.ValidateDeclaratively).
import { invalid } from '../../../errors/status-error.js';
import type { FieldError } from '../../../schema/field-errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.js';
import { schemaValidatorFor, withoutCoveredFields, withoutStoredCauses } from '../../validation/schema.js';
import { writeName, type WriteState, type WriteStep } from '../state.js';
import { canonicalCopy } from '../../../schema/typed.js';
import type { KubeObject } from '../../../schema/object.js';

/** The object and the stored one as the request's version has them; the objects themselves when nothing converts. */
interface InRequestVersion {
  readonly object: KubeObject;
  readonly current: KubeObject | undefined;
}

export const validate: WriteStep = {
  name: 'validate',
  run(state) {
    const { codec } = state.ctx;
    if (!codec.converts) return judge(state, { object: state.object, current: state.current });
    return (async () => {
      const object = await codec.fromStorage(state.object);
      const current = state.current === undefined ? undefined : await codec.fromStorage(state.current);
      judge(state, { object, current });
    })();
  },
};

function judge(state: WriteState, seen: InRequestVersion): void {
  const { definition: def, codec } = state.ctx;
  const { object, current, sub, context } = state;
  const schema = schemaValidatorFor(codec.served.schema);
  let meta: FieldError[];
  let kind: FieldError[];
  let fromSchema = schema.validate(seen.object);
  if (current === undefined) {
    meta = validateObjectMeta(object, { namespaced: def.scope === 'Namespaced', nameValidation: def.nameValidation, isCreate: true });
    kind = def.strategy.validate?.(object, context) ?? [];
  } else {
    const own = sub !== undefined && sub.declaration.scale === undefined ? sub.declaration.validateUpdate : undefined;
    const update = own ?? def.strategy.validateUpdate;
    meta = validateObjectMetaUpdate(object, current);
    kind = update !== undefined ? update(object, current, context) : (def.strategy.validate?.(object, context) ?? []);
    if (kind.length > 0 && update !== undefined) {
      // An object stored before kapi wrote quantities and times back as kube does
      // ("1000m" where an update now carries "1") is compared in today's form, so
      // an immutable field nobody changed is not refused; only refused updates pay.
      const canonical = canonicalCopy(def.schema.name, current, def.schema.definitions) as KubeObject | undefined;
      if (canonical !== undefined) kind = update(object, canonical, context);
    }
    if (fromSchema.length > 0 && seen.current !== undefined) fromSchema = withoutStoredCauses(fromSchema, schema.validate(seen.current));
  }
  if (meta.length === 0 && kind.length === 0 && fromSchema.length === 0) return;
  const errs = [...meta, ...withoutCoveredFields(fromSchema, [...meta, ...kind]), ...kind];
  if (errs.length > 0) throw invalid({ group: def.group, kind: def.kind }, writeName(state), errs);
}
