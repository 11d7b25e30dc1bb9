// A Storage that counts every read reaching it (get, list, count), whatever layer
// above asked: how tests show that a cache or lister answered instead.
import type { Storage } from '../../src/storage/storage.js';

export function countingStorage(storage: Storage): { storage: Storage; reads: () => number } {
  let reads = 0;
  const wrapped: Storage = {
    create: (...a) => storage.create(...a),
    get: (...a) => ((reads += 1), storage.get(...a)),
    list: (...a) => ((reads += 1), storage.list(...a)),
    count: (...a) => ((reads += 1), storage.count(...a)),
    guaranteedUpdate: (...a) => storage.guaranteedUpdate(...a),
    delete: (...a) => storage.delete(...a),
    watch: (...a) => storage.watch(...a),
    currentResourceVersion: () => storage.currentResourceVersion(),
    ping: () => storage.ping(),
    close: () => storage.close(),
  };
  return { storage: wrapped, reads: () => reads };
}
