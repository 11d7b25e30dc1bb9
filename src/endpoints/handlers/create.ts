// POST: options -> body (codec, type checks, fieldValidation) -> store.create ->
// 201 with the stored object (also for dryRun=All, as kube answers). Virtual kinds
// (SelfSubjectReview) go through the same path; their store computes the answer.
import { decodeObjectBody } from '../body.js';
import { parseWriteOptions } from './options.js';
import { addWarnings, respond, writeScopeOf, type Handler } from './scope.js';

export const createHandler: Handler = async (request, reply, scope) => {
  const options = parseWriteOptions(scope.query, 'CreateOptions');
  const body = decodeObjectBody(request, { scope, fieldValidation: options.fieldValidation });
  addWarnings(request, body.warnings);
  const result = await scope.store.create(body.object, { ...writeScopeOf(request, scope, options), handOver: true });
  addWarnings(request, result.warnings);
  return respond(request, reply, { code: 201, object: result.object, scope });
};
