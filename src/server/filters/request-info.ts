// First filter: resolves what the URL means (verb, group, version, resource,
// namespace, name) once, so every later stage reads request.kapi.info. A
// non-canonical path (empty or dot segments, an invalid namespace or name) stops
// here, before anything could route it to another object.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { pathProblem, resolveRequestInfo } from '../../endpoints/request-info.js';

export function requestInfoFilter(request: FastifyRequest): void {
  const info = resolveRequestInfo(request.method, request.url);
  request.kapi = {
    info,
    user: undefined,
    auditId: randomUUID(),
    warnings: [],
  };
  const problem = pathProblem(request.url, info);
  if (problem !== undefined) throw problem;
}
