// The watch cache (#11): a Storage decorator serving reads and watches from memory.
export { createCacher, type CachingStorage, type CacherOptions } from './cacher.js';
export { defaultResourcePrefix, DEFAULT_HISTORY_WINDOW_MS, DEFAULT_MAX_HISTORY_EVENTS } from './options.js';
