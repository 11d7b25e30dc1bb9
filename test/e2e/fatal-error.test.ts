// A fatal error (issue 8): an uncaught exception or an unhandled rejection in a
// running server writes one log line — the error, and the requests in flight at
// that moment with method, URI, audit ID and user — and the process exits 1.
// The crash is real: a module loaded with `node --import` (support/
// crash-on-request.mjs) throws from a timer while a watch is open.
import { request } from 'node:https';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { adminCredentials } from './support/http.js';
import { startKapi, type RunningKapi } from './support/server.js';

const CRASH_MODULE = join(import.meta.dirname, 'support/crash-on-request.mjs');

/** Opens a watch over HTTP/1.1 carrying the crash header; resolves once the answer starts. */
function openWatch(server: RunningKapi, mode: 'throw' | 'reject'): Promise<void> {
  const creds = adminCredentials(server.kubeconfig);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: '/api/v1/namespaces/default/configmaps?watch=true',
        headers: { 'x-kapi-test-crash': mode },
        ...creds,
        agent: false,
      },
      (res) => {
        res.on('error', () => undefined);
        res.resume();
        resolve();
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const cases: Array<{ name: string; mode: 'throw' | 'reject'; origin: string; message: string }> = [
  { name: 'uncaught exception', mode: 'throw', origin: 'uncaughtException', message: 'injected by the test: crash while serving' },
  { name: 'unhandled rejection', mode: 'reject', origin: 'unhandledRejection', message: 'injected by the test: rejection nobody handles' },
];

for (const c of cases) {
  test(`an ${c.name} logs the error and the requests in flight, then exits 1`, async () => {
    const server = await startKapi({ nodeArgs: [`--import=${CRASH_MODULE}`] });
    try {
      await openWatch(server, c.mode);
      expect(await server.exited).toEqual({ code: 1, signal: null });
      const fatal = server
        .logs()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>)
        .filter((l) => l.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ msg: 'fatal error: exiting', origin: c.origin, err: { message: c.message }, inFlightTotal: 1 });
      expect(fatal[0]!.inFlight).toEqual([
        {
          method: 'GET',
          uri: '/api/v1/namespaces/default/configmaps?watch=true',
          auditId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
          user: 'kubernetes-admin',
          ageMs: expect.any(Number),
        },
      ]);
      // It is the last line: nothing after it was lost.
      expect(server.logs().trim().split('\n').at(-1)).toContain('"level":60');
    } finally {
      await server.stop();
    }
  }, 30_000);
}
