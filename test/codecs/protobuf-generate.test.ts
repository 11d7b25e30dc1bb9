// Drift test: the committed proto/k8s.io and src/generated/proto are exactly what
// scripts/generate-proto.mjs derives from the reference set. Needs the reference
// set beside the checkout (../shared/reference); a fresh clone without it skips.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const reference = join(root, '..', 'shared', 'reference', 'proto');

test.skipIf(!existsSync(reference))('generated protobuf descriptors are up to date (skipped without ../shared/reference)', () => {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'generate-proto.mjs'), '--check'], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});
