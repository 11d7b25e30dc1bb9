// The shared KV conformance suite against the in-memory backend.
import { openMemoryKv } from '../../src/storage/memory/memory-kv.js';
import { describeKvConformance } from '../../src/storage/testing/kv.suite.js';

describeKvConformance('memory', () => openMemoryKv());
