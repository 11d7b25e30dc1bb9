// PUT: options -> body -> store.update (name agreement, resourceVersion, strategy)
// -> 200, or 201 when the PUT created the object.
import { decodeObjectBody } from '../body.js';
import { parseWriteOptions } from './options.js';
import { addWarnings, respond, writeScopeOf, type Handler } from './scope.js';

export const updateHandler: Handler = async (request, reply, scope) => {
  const options = parseWriteOptions(scope.query, 'UpdateOptions');
  const body = decodeObjectBody(request, { scope, fieldValidation: options.fieldValidation });
  addWarnings(request, body.warnings);
  const result = await scope.store.update(body.object, { ...writeScopeOf(request, scope, options), name: scope.info.name });
  addWarnings(request, result.warnings);
  return respond(request, reply, { code: result.created ? 201 : 200, object: result.object, scope });
};
