// Lookup of the generated message descriptors (src/generated/proto, written by
// scripts/generate-proto.mjs). Each package is a JSON string parsed the first time
// one of its messages is needed, so a cold start parses only what it uses
// (typically core/v1 and meta/v1).
import { kindMessages } from '../../generated/proto/kinds.js';
import { packageDescriptors } from '../../generated/proto/messages.js';

/** 'o' optional, 'r' repeated, 'm' map<string, type>, 'i' Go-embedded (JSON inline). */
export type FieldLabel = 'o' | 'r' | 'm' | 'i';

export type ScalarType = 'string' | 'bytes' | 'int32' | 'int64' | 'bool';

export interface FieldDescriptor {
  readonly number: number;
  /** The JSON name; empty for 'i' fields, whose own fields are the JSON names. */
  readonly name: string;
  /** A ScalarType or a message's full name (k8s.io.api.core.v1.PodSpec). */
  readonly type: string;
  readonly label: FieldLabel;
  /** OpenAPI lists it as required: Go's JSON shows it even when zero (no omitempty). */
  readonly required: boolean;
}

export interface MessageDescriptor {
  readonly fullName: string;
  /** Sorted by field number: the order Go's generated marshallers write. */
  readonly fields: readonly FieldDescriptor[];
}

type RawField = [number, string, string, FieldLabel, 1?];

const parsedPackages = new Map<string, Record<string, RawField[]>>();
const messages = new Map<string, MessageDescriptor | null>();

const SCALARS: ReadonlySet<string> = new Set<ScalarType>(['string', 'bytes', 'int32', 'int64', 'bool']);

export function isScalarType(type: string): type is ScalarType {
  return SCALARS.has(type);
}

export function messageDescriptor(fullName: string): MessageDescriptor | undefined {
  const cached = messages.get(fullName);
  if (cached !== undefined) return cached ?? undefined;
  const dot = fullName.lastIndexOf('.');
  const pkg = fullName.slice(0, dot);
  let parsed = parsedPackages.get(pkg);
  if (parsed === undefined) {
    const source = packageDescriptors[pkg];
    parsed = source === undefined ? {} : (JSON.parse(source) as Record<string, RawField[]>);
    parsedPackages.set(pkg, parsed);
  }
  const raw = Object.hasOwn(parsed, fullName.slice(dot + 1)) ? parsed[fullName.slice(dot + 1)] : undefined;
  const descriptor =
    raw === undefined
      ? null
      : { fullName, fields: raw.map(([number, name, type, label, required]) => ({ number, name, type, label, required: required === 1 })) };
  messages.set(fullName, descriptor);
  return descriptor ?? undefined;
}

/**
 * Kinds registered under a version by a Go type alias, so the generated table
 * (one row per message package) misses them: meta.k8s.io/v1beta1's
 * PartialObjectMetadata is v1's type, written as v1's message with the v1beta1
 * apiVersion in its envelope (its List is a type of its own and is in the table).
 */
const ALIASED_KINDS: Readonly<Record<string, string>> = {
  'meta.k8s.io/v1beta1/PartialObjectMetadata': 'k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata',
};

/** The message that carries apiVersion/kind on the wire, if Kubernetes defines one. */
export function messageForKind(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  if (Object.hasOwn(kindMessages, key)) return kindMessages[key];
  return Object.hasOwn(ALIASED_KINDS, key) ? ALIASED_KINDS[key] : undefined;
}
