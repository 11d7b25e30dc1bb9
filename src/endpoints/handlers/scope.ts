// What every verb handler receives from the installer: the resolved resource, its
// store, the codecs, and the request's query and effective namespace. Handlers are
// generic (STYLE §3): everything resource-specific comes from the definition.
import type { FeatureGates } from '../../features/feature-gates.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CodecRegistry } from '../../codecs/registry.js';
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { UserInfo } from '../../schema/user.js';
import type { ResourceStore, WriteScope } from '../../registry/store/types.js';
import type { TypedCheck } from '../../schema/typed.js';
import type { RequestInfo } from '../context.js';
import { encodeFor } from '../negotiation.js';
import type { WriteOptions } from './options.js';

/**
 * Typed decoding of a body against the definition's schema (schema/typed over the
 * built-in table by default; test groups and CRDs pass their own table): throws
 * SchemaTypeError for a value of the wrong type, normalizes nulls, answers the
 * unknown fields.
 */
export type SchemaChecker = (definition: ResourceDefinition, obj: unknown) => TypedCheck;

export interface HandlerScope {
  readonly definition: ResourceDefinition;
  readonly store: ResourceStore;
  readonly codecs: CodecRegistry;
  readonly checkSchema: SchemaChecker;
  readonly info: RequestInfo;
  readonly query: URLSearchParams;
  /** The namespace the request addresses ('' for cluster-scoped kinds and all-namespace lists). */
  readonly namespace: string;
  /** --min-request-timeout, for watches that name no timeoutSeconds. */
  readonly minRequestTimeoutSeconds: number;
  /** --feature-gates (WatchList decides whether sendInitialEvents is accepted). */
  readonly featureGates: FeatureGates;
  /** Answers over 128 KiB may be gzipped (kube's APIResponseCompression gate; compression.ts). */
  readonly responseCompression: boolean;
}

export type Handler = (request: FastifyRequest, reply: FastifyReply, scope: HandlerScope) => Promise<FastifyReply>;

export function userOf(request: FastifyRequest): UserInfo | undefined {
  return request.kapi?.user;
}

/** The registry write scope of a request: who, where, dry run and field manager. */
export function writeScopeOf(request: FastifyRequest, scope: HandlerScope, options: WriteOptions): WriteScope {
  const user = userOf(request);
  return {
    ...(user === undefined ? {} : { user }),
    namespace: scope.namespace,
    dryRun: options.dryRun,
    ...(options.fieldManager === undefined ? {} : { fieldManager: options.fieldManager }),
  };
}

export function addWarnings(request: FastifyRequest, warnings: readonly string[]): void {
  if (warnings.length > 0) request.kapi.warnings.push(...warnings);
}

/** Writes an object in the negotiated codec. Negotiation ran before any work, so this cannot 406. */
export function respond(request: FastifyRequest, reply: FastifyReply, opts: { code: number; object: unknown; scope: HandlerScope }): FastifyReply {
  const encoded = encodeFor(request, opts.object as { apiVersion?: string; kind?: string }, opts.scope.codecs);
  return reply.code(opts.code).header('Content-Type', encoded.contentType).send(encoded.body);
}
