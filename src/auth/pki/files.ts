// File writes for key material: a crash mid-write must never leave a truncated
// key or certificate that a later start would trust, so every file is written to
// a temporary name in the same directory and renamed over the target (rename is
// atomic within one filesystem). Files several replicas may create at once (a
// shared --cert-dir) are published with link() instead, which fails when the
// target exists: the first writer wins and the others read what it wrote.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteFileAtomicOptions {
  readonly path: string;
  readonly data: string;
  /** 0o600 for private keys and kubeconfigs; 0o644 for certificates. */
  readonly mode: number;
}

/** Writes and fsyncs the data under a fresh temporary name beside the target; answers that name. */
async function writeTemp(opts: WriteFileAtomicOptions): Promise<string> {
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
  return temp;
}

export async function writeFileAtomic(opts: WriteFileAtomicOptions): Promise<void> {
  const temp = await writeTemp(opts);
  try {
    await rename(temp, opts.path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * Creates the file with the whole content, or leaves an existing one alone:
 * true when this call created it, false when the target already existed.
 * Readers never see a partial file, and of concurrent writers exactly one wins.
 */
export async function createFileExclusive(opts: WriteFileAtomicOptions): Promise<boolean> {
  const temp = await writeTemp(opts);
  try {
    await link(temp, opts.path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await rm(temp, { force: true });
  }
}

/** Removes the file only while it still holds `expected` (a concurrent writer may have replaced it). */
export async function removeIfUnchanged(path: string, expected: string): Promise<void> {
  if ((await readIfExists(path)) === expected) await rm(path, { force: true });
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

// Synchronous twins, for the one caller that runs before anything asynchronous
// exists (the service-account signing key, read while main.ts wires the server).

function writeTempSync(opts: WriteFileAtomicOptions): string {
  const temp = join(dirname(opts.path), `.${basename(opts.path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', opts.mode);
  try {
    writeSync(fd, opts.data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  return temp;
}

export function writeFileAtomicSync(opts: WriteFileAtomicOptions): void {
  const temp = writeTempSync(opts);
  try {
    renameSync(temp, opts.path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

export function createFileExclusiveSync(opts: WriteFileAtomicOptions): boolean {
  const temp = writeTempSync(opts);
  try {
    linkSync(temp, opts.path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

export function readIfExistsSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function removeIfUnchangedSync(path: string, expected: string): void {
  if (readIfExistsSync(path) === expected) rmSync(path, { force: true });
}
