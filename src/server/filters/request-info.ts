// First filter: resolves what the URL means (verb, group, version, resource,
// namespace, name) once, so every later stage reads request.kapi.info.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { resolveRequestInfo } from '../../endpoints/request-info.js';

export function requestInfoFilter(request: FastifyRequest): void {
  request.kapi = {
    info: resolveRequestInfo(request.method, request.url),
    user: undefined,
    auditId: randomUUID(),
    warnings: [],
  };
}
