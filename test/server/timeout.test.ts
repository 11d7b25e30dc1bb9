// --request-timeout: a request that is not long-running gets kube's 504 Timeout
// when the handler is slower; a watch is left alone; a shorter ?timeout= wins.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { pino } from 'pino';
import { createApp } from '../../src/server/app.js';
import { requestInfoFilter } from '../../src/server/filters/request-info.js';
import { createTimeoutFilter } from '../../src/server/filters/timeout.js';
import { renderStatusAsJson } from '../../src/server/error-handler.js';

let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));

const app = createApp({
  logger: pino({ level: 'silent' }),
  filters: [requestInfoFilter, createTimeoutFilter({ requestTimeoutMs: 10_000, render: renderStatusAsJson })],
  renderStatus: renderStatusAsJson,
});

beforeAll(async () => {
  // A handler that only finishes when the test lets it: the slow request under test.
  app.get('/api/v1/namespaces/default/configmaps', async (request, reply) => {
    await held;
    if (reply.sent) return reply;
    return reply.send({ kind: 'ConfigMapList', watch: (request.query as Record<string, string>).watch ?? null });
  });
  await app.ready();
});
afterAll(async () => {
  release();
  await app.close();
});

test('a slow request answers 504 Timeout once ?timeout= has passed', async () => {
  const res = await app.inject({ url: '/api/v1/namespaces/default/configmaps?timeout=50ms' });
  expect(res.statusCode).toBe(504);
  expect(res.json()).toEqual({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'Timeout: request did not complete within requested timeout - context deadline exceeded',
    reason: 'Timeout', code: 504,
  });
});

test('a watch is long-running and is not cut', async () => {
  const pending = app.inject({ url: '/api/v1/namespaces/default/configmaps?watch=true&timeout=50ms' });
  const raced = await Promise.race([pending.then(() => 'answered'), new Promise((r) => setTimeout(() => r('still open'), 300))]);
  expect(raced).toBe('still open');
  release();
  const res = await pending;
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ kind: 'ConfigMapList', watch: 'true' });
});
