// File writes for key material: a crash mid-write must never leave a truncated
// key or certificate that a later start would trust, so every file is written to
// a temporary name in the same directory and renamed over the target (rename is
// atomic within one filesystem).
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteFileAtomicOptions {
  readonly path: string;
  readonly data: string;
  /** 0o600 for private keys and kubeconfigs; 0o644 for certificates. */
  readonly mode: number;
}

export async function writeFileAtomic(opts: WriteFileAtomicOptions): Promise<void> {
  const temp = join(dirname(opts.path), `.${basename(opts.path)}.${randomBytes(6).toString('hex')}.tmp`);
  // The mode is given at creation so the key is never readable by others, not even
  // between open and a later chmod.
  const handle = await open(temp, 'wx', opts.mode);
  try {
    await handle.writeFile(opts.data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, opts.path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** The file's text, or undefined when it does not exist (other errors propagate). */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
