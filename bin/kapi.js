#!/usr/bin/env node
// The package's bin: runs the compiled server (`npm run build` writes dist/).
import('../dist/src/main.js').then((m) => m.main(process.argv.slice(2))).catch((err) => {
  console.error(`kapi: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
