// What the fuzzer sends. A Seed is a request template (a structured body the
// mutators can change, or literal bytes); a FuzzInput is one concrete request,
// reproducible from the run's seed and its index, and written out whole when it
// breaks an invariant.
import type { Json } from './kinds.js';

/** h2: node:http2 sessions (the bulk); h1: HTTPS/1.1 keep-alive; raw: bytes written on a TLS socket. */
export type Transport = 'h2' | 'h1' | 'raw';
/** How `doc` is encoded; `text` seeds carry literal bytes that only byte mutators touch. */
export type BodyFormat = 'json' | 'yaml' | 'protobuf' | 'text' | 'none';

/** What kube-apiserver answers to this exact (unmutated) input; checked on top of the general invariants. */
export interface Expectation {
  readonly status?: readonly number[];
  /** On a 2xx answer, metadata.name must be exactly this string. */
  readonly name?: string;
  /** On a 2xx answer, these paths must exist as own keys (client keys round-trip as data). */
  readonly hasKeys?: readonly (readonly string[])[];
}

export interface Seed {
  /** `<class>/<detail>`, e.g. `configmaps/create/yaml` or `hostile/proto-smp`: the dedup key of the input's origin. */
  readonly name: string;
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Query without '?'. */
  readonly query?: string;
  readonly contentType?: string;
  readonly format: BodyFormat;
  readonly doc?: Json;
  readonly text?: Buffer;
  readonly transport?: Transport;
  readonly expect?: Expectation;
  /** The server may close or reset without an answer (a body that never completes). */
  readonly allowNoAnswer?: boolean;
  /** Resource written, for attributing a stored object to the input that wrote it. */
  readonly resource?: string;
  /** Request headers besides Accept and Content-Type (User-Agent, Expect, Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  /** HTTP/2 only: the body goes without Content-Length (DATA frames alone say where it ends). */
  readonly unframed?: boolean;
}

export interface FuzzInput {
  /** Position in the run (-1 for setup and final checks). */
  readonly index: number;
  /** Seed name, then the mutators applied in order. */
  readonly origin: string;
  readonly method: string;
  /** Path and query, exactly as sent. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body; for `raw`, the whole request bytes. */
  readonly body: Buffer | undefined;
  readonly transport: Transport;
  readonly expect?: Expectation;
  readonly allowNoAnswer?: boolean;
  readonly resource?: string;
  readonly unframed?: boolean;
}

/** A JSON value with own keys copied by definition, so `__proto__` stays an ordinary key. */
export function cloneJson<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, Json>)[key]!));
  return out as T;
}

/** obj[key] = value as an own data property, whatever the key (assignment to `__proto__` would change the prototype). */
export function setOwn(obj: Record<string, Json>, key: string, value: Json): void {
  // `__proto__` is Object.prototype's only accessor; every other key assigns as an own property (and fast).
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
