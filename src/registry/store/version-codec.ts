// The storage codec of one served version: the one place where the version a
// client reads and writes (autoscaling/v1) meets the version storage holds
// (autoscaling/v2, the kind's storage version). A write is decoded, defaulted and
// schema-validated in the version it was sent in; its object crosses here once, after
// the write's request-version steps (registry/write/steps/convert.ts), and
// everything storage answers crosses back here (get, list, watch, delete and write
// results), so no verb converts on its own.
//
// The kind's strategy is written for the stored version, which plays kube's
// internal version: kube converts a request to its internal version right after
// decoding and defaulting, runs admission and the strategy on that, and converts
// to the storage version on the way to etcd. With internal = storage version those
// two conversions are one, and this codec is it.
//
// Conversions may answer later (a CRD conversion webhook will): every function
// here answers a value or a Promise, and the callers await both. A frozen stored
// object (everything storage answers is frozen and may be shared) is converted
// once: the answer is remembered per object and frozen, so a watch event shared by
// many watchers, or a list item the watch cache also holds, converts once per
// served version. Events of one watch are delivered in storage's order whatever
// order their conversions finish in (servedWatch).
//
// Selectors never convert: labels are metadata, which conversions keep, and a
// converted version's field labels are read from the stored object by its
// selectableFields (kube's field label conversion), so lists and watches convert
// only what they answer.
import { internal, isStatusError } from '../../errors/status-error.js';
import { apiVersionOf, type KubeObject } from '../../schema/object.js';
import type { StorageWatch, StorageWatchEvent } from '../../storage/storage.js';
import type { ResourceDefinition } from '../define-resource.js';

export type MaybePromise<T> = T | Promise<T>;

export interface VersionCodec {
  /** The version requests address: its schema, its defaults, its type fields. */
  readonly served: ResourceDefinition;
  /** The version storage holds: keys, strategy, subresources. `served` itself when nothing converts. */
  readonly stored: ResourceDefinition;
  /** false: served is stored, and both functions answer their input unchanged. */
  readonly converts: boolean;
  /**
   * A served-version object as storage holds it, with the stored type fields. The
   * answer is new but may share parts with `obj`; `obj` is not changed. Throws (or
   * rejects with) what the conversion throws: a StatusError (400 for a malformed
   * annotation) or anything else, which the store answers as a 500.
   */
  toStorage(obj: KubeObject): MaybePromise<KubeObject>;
  /**
   * A stored object as the served version, with the served type fields. For a
   * frozen object (what storage answers) the answer is frozen and remembered for
   * that object. For one still being built (a write's, which validation reads in
   * the request version) it is fresh and may share parts with `obj`: read it, do
   * not keep it.
   */
  fromStorage(obj: KubeObject): MaybePromise<KubeObject>;
}

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A copy of obj's top level with def's kind and apiVersion first; keys are defined, never assigned. */
function withTypeMeta(obj: KubeObject, def: ResourceDefinition): KubeObject {
  const out: Record<string, unknown> = { kind: def.kind, apiVersion: apiVersionOf(def) };
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'kind' || key === 'apiVersion') continue;
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out as KubeObject;
}

function identityCodec(definition: ResourceDefinition): VersionCodec {
  return { served: definition, stored: definition, converts: false, toStorage: (obj) => obj, fromStorage: (obj) => obj };
}

/** The codec of a served definition: its conversion to and from the stored definition, or the identity. */
export function createVersionCodec(served: ResourceDefinition): VersionCodec {
  const conversion = served.conversion;
  if (conversion === undefined) return identityCodec(served);
  const stored = conversion.stored;
  // Values once known, the pending conversion before: concurrent readers of one
  // object share one call of a slow conversion.
  const seen = new WeakMap<KubeObject, MaybePromise<KubeObject>>();
  return {
    served,
    stored,
    converts: true,
    toStorage(obj) {
      const converted = conversion.toStored(obj);
      return isPromise(converted) ? converted.then((o) => withTypeMeta(o, stored)) : withTypeMeta(converted, stored);
    },
    fromStorage(obj) {
      const shared = Object.isFrozen(obj);
      if (shared) {
        const known = seen.get(obj);
        if (known !== undefined) return known;
      }
      const finish = (o: KubeObject): KubeObject => (shared ? deepFreeze(withTypeMeta(o, served)) : withTypeMeta(o, served));
      const converted = conversion.fromStored(obj);
      if (!isPromise(converted)) {
        const answer = finish(converted);
        if (shared) seen.set(obj, answer);
        return answer;
      }
      const answer = converted.then(finish);
      if (shared) {
        seen.set(obj, answer);
        // A failed conversion is not remembered: the next reader tries again.
        answer.then(
          (value) => seen.set(obj, value),
          () => seen.delete(obj),
        );
      }
      return answer;
    },
  };
}

/** What a watch delivers to (store/types.ts WatchOptions' callbacks). */
export interface WatchSink {
  readonly onEvent: (event: StorageWatchEvent) => void;
  readonly onError: (err: unknown) => void;
  readonly onProgress?: (resourceVersion: string) => void;
}

/**
 * The callbacks to hand the stored version's watch, and `bind` for the handle it
 * answers: events reach `sink` converted and in storage's order; progress and a
 * final error wait for the events before them (progress promises that every
 * earlier change was delivered). A conversion that fails ends the watch with its
 * error, as kube's watch ends with an ERROR event; nothing is delivered after
 * close. The identity codec hands `sink` through untouched.
 */
export function servedWatch(codec: VersionCodec, sink: WatchSink): WatchSink & { bind(handle: StorageWatch): StorageWatch } {
  if (!codec.converts) return { ...sink, bind: (handle) => handle };
  let ended = false;
  let handle: StorageWatch | undefined;
  // Deliveries waiting for a conversion, chained in arrival order. While none
  // waits, a conversion that answers at once is delivered at once.
  let waiting = 0;
  let tail: Promise<void> = Promise.resolve();
  // closeInner: a conversion failed and storage's watch still runs; storage's own
  // error has already ended it.
  const end = (err: unknown, closeInner: boolean): void => {
    if (ended) return;
    ended = true;
    if (closeInner) handle?.close();
    sink.onError(err);
  };
  const inOrder = <T>(value: MaybePromise<T>, deliver: (v: T) => void): void => {
    if (ended) return;
    if (waiting === 0 && !isPromise(value)) {
      deliver(value);
      return;
    }
    // Handled here, awaited below in its turn: a rejection before then is not "unhandled".
    if (isPromise(value)) value.catch(() => undefined);
    waiting++;
    tail = tail.then(async () => {
      try {
        const v = await value;
        if (!ended) deliver(v);
      } catch (err) {
        end(isStatusError(err) ? err : internal(err), true);
      } finally {
        waiting--;
      }
    });
  };
  return {
    onEvent(event) {
      if (event.type === 'BOOKMARK' || event.type === 'ERROR') {
        inOrder(event, sink.onEvent);
        return;
      }
      let converted: MaybePromise<KubeObject>;
      try {
        converted = codec.fromStorage(event.object);
      } catch (err) {
        converted = Promise.reject(err);
      }
      inOrder(converted, (object) => sink.onEvent({ type: event.type, object }));
    },
    onError: (err) => inOrder(err, (e) => end(e, false)),
    ...(sink.onProgress === undefined ? {} : { onProgress: (rv: string) => inOrder(rv, sink.onProgress!) }),
    bind(inner) {
      handle = inner;
      if (ended) inner.close();
      return {
        close() {
          ended = true;
          inner.close();
        },
      };
    },
  };
}
