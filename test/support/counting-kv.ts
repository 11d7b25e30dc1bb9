// A KV that counts the calls made on it, by method name: how tests show which
// reads a store makes (or saves) without reaching into it.
import type { KV } from '../../src/storage/kv.js';

export function countingKv(inner: KV): { kv: KV; calls: Record<string, number> } {
  const calls: Record<string, number> = Object.create(null) as Record<string, number>;
  const kv = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[String(prop)] = (calls[String(prop)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { kv, calls };
}
