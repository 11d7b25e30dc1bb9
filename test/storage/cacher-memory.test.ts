import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { cacherUnderTest } from '../../src/storage/testing/cacher-under-test.js';
import { describeStorageConformance } from '../../src/storage/testing/storage.suite.js';

describeStorageConformance('watch cache over memory KV', () => cacherUnderTest(openMemoryKv()));
