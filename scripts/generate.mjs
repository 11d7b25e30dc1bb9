#!/usr/bin/env node
// `npm run generate`: re-derives everything under src/generated/ and proto/ from
// ../shared/reference (or $KAPI_REFERENCE_DIR). The output is committed, so a
// fresh clone never needs the reference data; run this only to pick up new facts.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const generators = ['generate-openapi.mjs', 'generate-proto.mjs'];

for (const script of generators) {
  process.stderr.write(`generate: ${script}\n`);
  const run = spawnSync(process.execPath, [join(here, script), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (run.status !== 0) {
    process.stderr.write(`generate: ${script} failed\n`);
    process.exit(run.status ?? 1);
  }
}
