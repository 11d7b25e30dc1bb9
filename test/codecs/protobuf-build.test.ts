// The generated descriptors are TypeScript, so `tsc` carries them into dist/ with
// no copy step: this compiles the codec the way `npm run build` does (into a temp
// dir), then loads it in a fresh Node process that sees nothing but the compiled
// output, decodes a golden body there, and reports the cold load time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const golden = join(root, 'test', 'testdata', 'core.v1.Pod.pb');
const goldenJson = join(root, 'test', 'testdata', 'core.v1.Pod.json');

/** Child-process script: time the import and the first decode, print them with the object. */
const probe = `
const started = performance.now();
const { protobufCodec, hasProtobufMessage } = await import(process.argv[1]);
const imported = performance.now();
const obj = protobufCodec.decode(require('node:fs').readFileSync(process.argv[2]));
const decoded = performance.now();
console.log(JSON.stringify({ importMs: imported - started, firstDecodeMs: decoded - imported,
  hasPod: hasProtobufMessage('v1', 'Pod'), obj }));
`;

function runProbe(modulePath: string): { importMs: number; firstDecodeMs: number; hasPod: boolean; obj: unknown } {
  const out = execFileSync(process.execPath, ['--input-type=commonjs', '-e', `(async () => {${probe}})()`, modulePath, golden], {
    encoding: 'utf8',
    cwd: tmpdir(),
  });
  return JSON.parse(out) as ReturnType<typeof runProbe>;
}

describe('the codec loads from compiled output alone', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'kapi-pb-build-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  test('tsc output of src/codecs/protobuf.ts decodes in a fresh process', () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    });
    expect(config).toBeDefined();
    const program = ts.createProgram({
      rootNames: [join(root, 'src', 'codecs', 'protobuf.ts')],
      options: { ...config!.options, outDir, sourceMap: false, noEmit: false },
    });
    const emitted = program.emit();
    expect(emitted.emitSkipped).toBe(false);
    // The temp dir is outside the project: tell Node its .js files are ES modules.
    writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');

    const got = runProbe(join(outDir, 'src', 'codecs', 'protobuf.js'));
    expect(got.hasPod).toBe(true);
    expect(got.obj).toEqual(JSON.parse(readFileSync(goldenJson, 'utf8')));
    // Cold start budget for the whole server is 1.5 s; the codec must be a sliver of it.
    console.log(`protobuf codec cold load: import ${got.importMs.toFixed(1)} ms, first Pod decode ${got.firstDecodeMs.toFixed(1)} ms`);
    expect(got.importMs + got.firstDecodeMs).toBeLessThan(500);
  });

  const dist = join(root, 'dist', 'src', 'codecs', 'protobuf.js');
  test.skipIf(!existsSync(dist))('npm run build output (dist/src) decodes too (skipped until dist/ is built)', () => {
    const got = runProbe(dist);
    expect(got.obj).toEqual(JSON.parse(readFileSync(goldenJson, 'utf8')));
  });
});
