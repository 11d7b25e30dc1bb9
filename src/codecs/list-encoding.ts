// A list answer in pieces, so the endpoint layer can write it item by item
// (kube-apiserver 1.33+'s streaming collection encoders, StreamingCollectionEncodingToJSON
// and …ToProtobuf): the bytes before the first item, each item's own bytes (shared
// between lists through encodeItemShared), what goes before each item, and the bytes
// after the last. Concatenated they are exactly what the codec's encode(list) writes,
// so a client cannot tell the two apart; test/codecs/list-encoding.test.ts holds
// them to that. Only JSON (not ?pretty, whose indentation depends on depth) and
// protobuf have a piecewise form; YAML and Tables keep the one-piece encoding.
import type { Codec } from './codec.js';
import { goEscape, jsonCodec } from './json.js';
import { protobufCodec, writeEnvelopeStart } from './protobuf.js';
import { isScalarType, messageDescriptor, messageForKind } from './protobuf/descriptors.js';
import { encoderFor } from './protobuf/encode.js';
import { LENGTH_DELIMITED, Writer } from './protobuf/wire.js';
import { encodeItemShared, type ItemEncoder } from './shared-encoding.js';
import { internal, isStatusError } from '../errors/status-error.js';

export interface ListEncoding {
  readonly count: number;
  /** Item i's own bytes; the same Buffer for an unchanged stored object in every list. Read-only. */
  item(i: number): Buffer;
  /** What goes right before item i, given its bytes (a JSON comma, a protobuf tag and length); may be empty. */
  before(i: number, item: Buffer): Buffer;
  /**
   * The bytes before the first item. Protobuf writes the list's length ahead of its
   * items, so `itemsLength` (the sum of every before() and item() length) must be
   * known first when `needsItemsLength` is set; JSON ignores it.
   */
  head(itemsLength: number): Buffer;
  readonly needsItemsLength: boolean;
  readonly tail: Buffer;
}

const EMPTY = Buffer.alloc(0);
const COMMA = Buffer.from(',');

/** A JSON list item as it sits inside the list: the codec's bytes without their trailing newline. */
const jsonItem: ItemEncoder = { encode: (item) => Buffer.from(goEscape(JSON.stringify(item) ?? 'null'), 'utf8') };

function itemBytes(encoder: ItemEncoder, item: unknown): Buffer {
  return typeof item === 'object' && item !== null ? encodeItemShared(encoder, item) : encoder.encode(item as object);
}

/**
 * The pieces of a list for `codec`, or undefined when the codec or the object has no
 * piecewise form (not an object with an `items` array, a kind protobuf has no list
 * message of the usual {metadata = 1, items = 2} shape for).
 */
export function listEncoding(codec: Codec, list: unknown): ListEncoding | undefined {
  if (typeof list !== 'object' || list === null || !Array.isArray((list as { items?: unknown }).items)) return undefined;
  if (codec === jsonCodec) return jsonListEncoding(list as Record<string, unknown> & { items: unknown[] });
  if (codec === protobufCodec) return protobufListEncoding(list as Record<string, unknown> & { items: unknown[] });
  return undefined;
}

/** JSON.stringify's object walk, with the items array left open between head and tail. */
function jsonListEncoding(list: Record<string, unknown> & { items: unknown[] }): ListEncoding {
  const before: string[] = [];
  const after: string[] = [];
  let seenItems = false;
  for (const key of Object.keys(list)) {
    if (key === 'items') {
      seenItems = true;
      continue;
    }
    const value = JSON.stringify(list[key]);
    // JSON.stringify leaves out undefined, functions and symbols; so do we.
    if (value !== undefined) (seenItems ? after : before).push(`${JSON.stringify(key)}:${value}`);
  }
  const items = list.items;
  const head = `{${before.map((p) => `${p},`).join('')}"items":[`;
  const tail = `]${after.map((p) => `,${p}`).join('')}}\n`;
  return {
    count: items.length,
    item: (i) => itemBytes(jsonItem, items[i]),
    before: (i) => (i === 0 ? EMPTY : COMMA),
    head: () => Buffer.from(goEscape(head), 'utf8'),
    needsItemsLength: false,
    tail: Buffer.from(goEscape(tail), 'utf8'),
  };
}

/** One item encoder per message type, so cached item bytes are keyed by what they were written as. */
const protobufItems = new Map<string, ItemEncoder>();

function protobufItemEncoder(message: string): ItemEncoder {
  let encoder = protobufItems.get(message);
  if (encoder === undefined) {
    encoder = {
      encode: (item) => {
        try {
          const w = new Writer(2048);
          encoderFor(message).encode(w, item);
          return w.finish();
        } catch (err) {
          // As the codec does: an object that does not fit its message is a server bug.
          throw isStatusError(err) ? err : internal(err);
        }
      },
    };
    protobufItems.set(message, encoder);
  }
  return encoder;
}

/** The runtime.Unknown envelope protobuf.ts writes, around a {1: metadata, 2: items…} list message. */
function protobufListEncoding(list: Record<string, unknown> & { items: unknown[] }): ListEncoding | undefined {
  const { apiVersion, kind, metadata, items } = list;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const message = messageForKind(apiVersion, kind);
  const fields = message === undefined ? undefined : messageDescriptor(message)?.fields;
  const [meta, entries] = fields ?? [];
  const usual =
    fields?.length === 2 &&
    meta?.number === 1 && meta.name === 'metadata' && meta.label === 'o' && !isScalarType(meta.type) &&
    entries?.number === 2 && entries.name === 'items' && entries.label === 'r' && !isScalarType(entries.type);
  if (!usual) return undefined;
  const itemEncoder = protobufItemEncoder(entries.type);
  let metaPart: Buffer = EMPTY;
  if (metadata !== undefined && metadata !== null) {
    const w = new Writer(64);
    w.tag(1, LENGTH_DELIMITED);
    const start = w.fork();
    try {
      encoderFor(meta.type).encode(w, metadata);
    } catch (err) {
      throw internal(err);
    }
    w.ldelim(start);
    metaPart = w.finish();
  }
  return {
    count: items.length,
    item: (i) => itemBytes(itemEncoder, items[i]),
    before: (_i, bytes) => {
      const w = new Writer(6);
      w.tag(2, LENGTH_DELIMITED);
      w.uint32(bytes.length);
      return w.finish();
    },
    head: (itemsLength) => {
      const w = new Writer(64 + metaPart.length);
      writeEnvelopeStart(w, apiVersion, kind);
      w.uint32(metaPart.length + itemsLength);
      w.raw(metaPart);
      return w.finish();
    },
    needsItemsLength: true,
    // contentEncoding (3) and contentType (4), empty, as protobuf.ts writes them.
    tail: Buffer.from([(3 << 3) | LENGTH_DELIMITED, 0, (4 << 3) | LENGTH_DELIMITED, 0]),
  };
}
