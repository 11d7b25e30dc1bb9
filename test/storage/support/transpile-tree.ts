// Builds a plain-JS copy of a TypeScript entry file and everything it imports
// relatively, for tests that must run our code in a child `node` process (which
// cannot load .ts). TypeScript's transpileModule is enough because our imports
// already end in `.js`; nothing else in the repo is compiled, so a half-written
// file of another engineer cannot break the child. The copy keeps the repo's
// relative layout and links node_modules, so bare imports resolve as in the repo.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const REPO = resolve(import.meta.dirname, '../../..');
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g;

export interface TranspiledTree {
  /** Root of the copy (delete it when done). */
  readonly dir: string;
  /** Path of the transpiled entry file inside the copy. */
  readonly entry: string;
}

export function transpileTree(entryFromRepo: string): TranspiledTree {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-transpiled-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const seen = new Set<string>();
  const pending = [resolve(REPO, entryFromRepo)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(RELATIVE_IMPORT)) pending.push(resolve(dirname(file), `${m[1]}.ts`));
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    const target = join(dir, relative(REPO, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, out.outputText);
  }
  return { dir, entry: join(dir, entryFromRepo).replace(/\.ts$/, '.js') };
}
