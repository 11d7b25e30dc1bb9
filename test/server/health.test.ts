import fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkOf, registerHealthRoutes } from '../../src/server/health.js';

let storageUp = true;
const storage = checkOf('etcd', () => {
  if (!storageUp) throw new Error('connection refused');
});
const ping = checkOf('ping', () => undefined);

const app = fastify();
beforeAll(async () => {
  registerHealthRoutes(app, { livez: [ping], readyz: [ping, storage], healthz: [ping, storage] }, { timeoutMs: 200 });
  await app.ready();
});
afterAll(() => app.close());

describe('health endpoints', () => {
  test('plain answer is ok', async () => {
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('ok');
  });

  test('verbose lists every check', async () => {
    const res = await app.inject({ url: '/readyz?verbose' });
    expect(res.body).toBe('[+]ping ok\n[+]etcd ok\nreadyz check passed\n');
  });

  test('exclude skips a check and says so', async () => {
    const res = await app.inject({ url: '/healthz?verbose&exclude=etcd' });
    expect(res.body).toBe('[+]ping ok\n[+]etcd excluded: ok\nhealthz check passed\n');
  });

  test('a failing storage check fails readiness but not liveness', async () => {
    storageUp = false;
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(500);
      expect(ready.body).toBe('[+]ping ok\n[-]etcd failed: reason withheld\nreadyz check failed\n');
      expect((await app.inject({ url: '/livez' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/readyz/etcd' })).statusCode).toBe(500);
    } finally {
      storageUp = true;
    }
  });

  test('a hanging check times out as a failure', async () => {
    const hang = fastify();
    registerHealthRoutes(hang, { livez: [checkOf('stuck', () => new Promise<void>(() => undefined))], readyz: [], healthz: [] }, { timeoutMs: 50 });
    const res = await hang.inject({ url: '/livez' });
    expect(res.statusCode).toBe(500);
    await hang.close();
  });

  test('one named check, unknown check 404', async () => {
    expect((await app.inject({ url: '/livez/ping' })).body).toBe('ok');
    expect((await app.inject({ url: '/livez/nope' })).statusCode).toBe(404);
  });
});
