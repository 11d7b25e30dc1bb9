// One certificate and its key in a cert dir, ensured: reused when the pair on
// disk passes the caller's check, issued when absent, replaced when unusable.
// Safe against the two things a start can meet: a crash of an earlier start part
// way through (files are never half written; a key left without its certificate
// is cleaned up), and other replicas ensuring the same pair in a shared
// --cert-dir at the same moment (the first to publish wins, everybody uses its
// pair). Every wait and retry is bounded.
import { join } from 'node:path';
import { createFileExclusive, readIfExists, removeIfUnchanged, writeFileAtomic } from './files.js';
import type { CertificateAndKey } from './issue.js';

export interface EnsurePairOptions {
  readonly dir: string;
  /** File names inside dir, e.g. ca.crt and ca.key. */
  readonly certName: string;
  readonly keyName: string;
  /** For reasons and errors: "CA", "serving certificate". */
  readonly label: string;
  /** Why the pair cannot be reused; undefined: reuse it. */
  check(pair: CertificateAndKey): string | undefined;
  issue(): Promise<CertificateAndKey>;
  /**
   * A certificate on disk without its key. Keys are written first, so no crash
   * leaves this; someone put it there. Throw to refuse; return to replace it.
   */
  certificateWithoutKey?(files: { certFile: string; keyFile: string }): void;
  /** Injected in tests; defaults to a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** How long a key without its certificate may be another writer's work in progress (default 2 s). */
  readonly halfWrittenWaitMs?: number;
}

export interface EnsuredPair {
  readonly pair: CertificateAndKey;
  /** Whether the pair in use is one this call wrote. */
  readonly generated: boolean;
  /** Why something had to be written; undefined when the pair on disk was reused. */
  readonly reason?: string;
}

const POLL_MS = 50;
/** Rounds of read-and-decide; each ends in a return, a write, a removal or a short wait. */
const MAX_ROUNDS = 100;

const timerSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function ensurePair(opts: EnsurePairOptions): Promise<EnsuredPair> {
  const certFile = join(opts.dir, opts.certName);
  const keyFile = join(opts.dir, opts.keyName);
  const sleep = opts.sleep ?? timerSleep;
  const halfWrittenWaitMs = opts.halfWrittenWaitMs ?? 2000;
  let reason: string | undefined;
  let wrote: CertificateAndKey | undefined;
  let replacements = 0;
  let waitedMs = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [certPem, keyPem] = await Promise.all([readIfExists(certFile), readIfExists(keyFile)]);
    if (certPem !== undefined && keyPem !== undefined) {
      const why = opts.check({ certPem, keyPem });
      if (why === undefined) {
        const generated = wrote !== undefined && wrote.certPem === certPem && wrote.keyPem === keyPem;
        return { pair: { certPem, keyPem }, generated, ...(reason === undefined ? {} : { reason }) };
      }
      // Replaced files can interleave with another replica's replacement (its key,
      // our certificate); the next round sees the mismatch and tries again, a few times.
      if (++replacements > 5) throw new Error(`${certFile}: the ${opts.label} on disk stays unusable (${why}); another process keeps replacing it`);
      reason ??= `${opts.label} ${why}`;
      wrote = await opts.issue();
      // Key first: a crash between the two leaves a certificate that does not match
      // its key, which the next start detects and replaces.
      await writeFileAtomic({ path: keyFile, data: wrote.keyPem, mode: 0o600 });
      await writeFileAtomic({ path: certFile, data: wrote.certPem, mode: 0o644 });
      continue;
    }
    if (certPem !== undefined) {
      opts.certificateWithoutKey?.({ certFile, keyFile });
      reason ??= `${opts.label} has no key`;
      wrote = await opts.issue();
      await writeFileAtomic({ path: keyFile, data: wrote.keyPem, mode: 0o600 });
      await writeFileAtomic({ path: certFile, data: wrote.certPem, mode: 0o644 });
      continue;
    }
    if (keyPem !== undefined) {
      // Another process is between publishing the key and the certificate (they
      // follow each other at once), or one crashed there: give it a moment, then
      // treat the key as debris.
      if (waitedMs < halfWrittenWaitMs) {
        await sleep(POLL_MS);
        waitedMs += POLL_MS;
        continue;
      }
      await removeIfUnchanged(keyFile, keyPem);
      waitedMs = 0;
      continue;
    }
    // Neither file: a first start. Of several starting at once, the one whose key
    // lands first publishes its pair; the others find it in the next round.
    reason ??= `no ${opts.label} yet`;
    const pair = await opts.issue();
    if (await createFileExclusive({ path: keyFile, data: pair.keyPem, mode: 0o600 })) {
      if (await createFileExclusive({ path: certFile, data: pair.certPem, mode: 0o644 })) wrote = pair;
    }
  }
  throw new Error(`${certFile}: no usable ${opts.label} after ${MAX_ROUNDS} rounds`);
}
