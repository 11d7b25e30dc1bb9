#!/usr/bin/env node
// The package's bin: runs the compiled server (`npm run build` writes dist/), or
// one of its subcommands, dispatched here before the server parses its flags so a
// subcommand loads nothing of the server: `kapi credential …` is an exec
// credential plugin for kubectl (src/cli/credential.ts).
const argv = process.argv.slice(2);
const entry = argv[0] === 'credential' ? import('../dist/src/cli/credential.js').then((m) => m.main(argv.slice(1))) : import('../dist/src/main.js').then((m) => m.main(argv));
entry.catch((err) => {
  console.error(`kapi: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
