// SIGTERM with a watch open: the watch ends and the process exits by itself
// (code 0), instead of waiting for the watch's timeout or being killed.
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { expect, test } from 'vitest';
import yaml from 'js-yaml';
import { startKapi } from './support/server.js';

test('an open watch does not hold shutdown', async () => {
  const server = await startKapi();
  const cfg = yaml.load(readFileSync(server.kubeconfig, 'utf8')) as {
    clusters: { cluster: Record<string, string> }[];
    users: { user: Record<string, string> }[];
  };
  const b64 = (s: string | undefined) => Buffer.from(s ?? '', 'base64');
  const session = connect(server.url, {
    ca: b64(cfg.clusters[0]!.cluster['certificate-authority-data']),
    cert: b64(cfg.users[0]!.user['client-certificate-data']),
    key: b64(cfg.users[0]!.user['client-key-data']),
  });
  session.on('error', () => undefined);
  const stream = session.request({ ':path': '/api/v1/namespaces?watch=true', accept: 'application/json' });
  stream.on('error', () => undefined);
  const firstEvent = new Promise<string>((resolve) => stream.once('data', (c: Buffer) => resolve(c.toString())));
  const ended = new Promise<void>((resolve) => stream.once('close', () => resolve()));
  expect(await firstEvent).toContain('"type":"ADDED"');

  const started = Date.now();
  const exit = await server.stop();
  expect(exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - started).toBeLessThan(5000);
  await ended;
  session.destroy();
}, 30_000);
