// The generated service-account signing key (<cert-dir>/sa.key): replicas
// starting at once on a shared cert dir (separate processes) end with one key,
// and a key file a crash left half written never stops a start.
import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { ensureSigningKeyPem } from '../../../src/auth/serviceaccount/tokens.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kapi-sa-key-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const publicPemOf = (privatePem: string) => createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' }).toString();

test('a half-written sa.key is replaced by a usable key, with its sa.pub', () => {
  writeFileSync(join(dir, 'sa.key'), '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49', { mode: 0o600 });
  const pem = ensureSigningKeyPem({ certDir: dir });
  expect(() => createPrivateKey(pem)).not.toThrow();
  expect(readFileSync(join(dir, 'sa.key'), 'utf8')).toBe(pem);
  expect(readFileSync(join(dir, 'sa.pub'), 'utf8')).toBe(publicPemOf(pem));
});

test('a missing sa.pub is written from the key in use; the key stays', () => {
  const pem = ensureSigningKeyPem({ certDir: dir });
  rmSync(join(dir, 'sa.pub'));
  expect(ensureSigningKeyPem({ certDir: dir })).toBe(pem);
  expect(readFileSync(join(dir, 'sa.pub'), 'utf8')).toBe(publicPemOf(pem));
});

test('four processes starting at once on one cert dir all sign with the same key', async () => {
  // The compiled module (npm run build), as the server runs it.
  const module = resolve(import.meta.dirname, '../../../dist/src/auth/serviceaccount/tokens.js');
  const script = `import(${JSON.stringify(module)}).then((m) => process.stdout.write(m.ensureSigningKeyPem({ certDir: ${JSON.stringify(dir)} })))`;
  const run = promisify(execFile);
  const keys = await Promise.all([0, 1, 2, 3].map(async () => (await run(process.execPath, ['-e', script])).stdout));
  expect(new Set(keys).size).toBe(1);
  expect(readFileSync(join(dir, 'sa.key'), 'utf8')).toBe(keys[0]);
});
