// The in-memory mirror of what the database says about revisions. Only the
// writer (after a commit) and the compactor (after recording a compaction)
// change it, both synchronously, so every read sees a committed snapshot.
import { StorageError } from '../../errors/storage-error.js';

export interface RevisionState {
  /** The last committed revision. */
  revision: number;
  /** Reads and watches at or below this revision throw Compacted. */
  compacted: number;
  /** Compaction has purged the log up to this revision (<= compacted). */
  purgedThrough: number;
  closed: boolean;
}

export function assertOpen(state: RevisionState): void {
  if (state.closed) throw new StorageError('Unavailable', 'sqlite storage is closed');
}

/**
 * Resolves a requested read revision (0 / absent: latest) and rejects the ones
 * outside the readable window [compacted + 1, revision].
 */
export function resolveReadRevision(state: RevisionState, requested: number | undefined): number {
  if (requested === undefined || requested === 0) return state.revision;
  if (requested > state.revision) {
    throw new StorageError('FutureRevision', `revision ${requested} is newer than the current revision ${state.revision}`, {
      revision: state.revision,
      requested,
    });
  }
  if (requested <= state.compacted) {
    throw new StorageError('Compacted', `revision ${requested} has been compacted`, { revision: state.compacted + 1, requested });
  }
  return requested;
}
