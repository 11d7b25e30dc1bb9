// The registry's client-facing contract: one ResourceStore per resource, used the
// same way by HTTP handlers and by in-process callers (bootstrap, controllers).
// Every method takes an options object carrying the request scope (user,
// namespace) and throws only StatusError.
import type { StatusDetails } from '../../errors/status-error.js';
import type { GroupVersionKind, KubeList, KubeObject } from '../../schema/object.js';
import type { UserInfo } from '../../schema/user.js';
import type { ObjectPredicate, Preconditions, ResourceVersionMatch, StorageWatch, StorageWatchEvent } from '../../storage/storage.js';
import type { ResourceDefinition, StreamAnswer, SubresourceDefinition } from '../define-resource.js';

export interface RequestScope {
  /** Who asks; admission and virtual resources read it. In-process callers may omit it. */
  readonly user?: UserInfo;
  /** The namespace from the URL; '' or absent for cluster-scoped kinds and all-namespace lists. */
  readonly namespace?: string;
}

export interface WriteScope extends RequestScope {
  /** dryRun=All: run every step, persist nothing. */
  readonly dryRun?: boolean;
  /** Validated by the handler; recorded in managedFields once apply/ computes field sets. */
  readonly fieldManager?: string;
}

export interface CreateOptions extends WriteScope {
  /**
   * The caller hands the object over (a body it has just decoded and will not
   * read again): the store may change it in place instead of copying it first.
   */
  readonly handOver?: boolean;
}

export interface GetOptions extends RequestScope {
  readonly name: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
}

export interface ListOptions extends RequestScope {
  readonly predicate?: ObjectPredicate;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: ResourceVersionMatch;
}

export interface UpdateOptions extends WriteScope {
  /** The name on the URL; the object's own name must agree. */
  readonly name: string;
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions extends WriteScope {
  readonly name: string;
  readonly preconditions?: Preconditions;
  readonly propagationPolicy?: PropagationPolicy;
  readonly gracePeriodSeconds?: number;
}

export type DeleteCollectionOptions = Omit<ListOptions, 'limit' | 'continue'> &
  WriteScope & { readonly propagationPolicy?: PropagationPolicy; readonly gracePeriodSeconds?: number };

export interface WriteResult {
  readonly object: KubeObject;
  /** Texts for Warning headers (strategy warnings). */
  readonly warnings: readonly string[];
}

export interface UpdateResult extends WriteResult {
  /** The PUT created the object (201). */
  readonly created: boolean;
}

/** DELETE's Success Status (no `code`, as kube's store writes it). */
export interface SuccessStatus {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Success';
  readonly details: StatusDetails;
}

export interface DeleteResult {
  /** The object as it was removed (or, while finalizers hold it, as it is now). */
  readonly object: KubeObject;
  /** What the DELETE answers: the object (returnDeletedObject or pending) or a Success Status. */
  readonly response: KubeObject | SuccessStatus;
  readonly warnings: readonly string[];
}

// watch.ts's options, the write request and subresource.ts's client live here, with the rest of the
// contract, so that types.ts imports no implementation file (no cycles).
export interface WatchOptions extends RequestScope {
  readonly predicate?: ObjectPredicate;
  /** Only objects of this name (in the scope's namespace, or in all): decided by key, before decoding. */
  readonly name?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly onEvent: (event: StorageWatchEvent) => void;
  /** Called once with a StatusError (410 Expired, 503) when the watch ends on its own. */
  readonly onError: (err: unknown) => void;
  readonly onProgress?: (resourceVersion: string) => void;
}

/** What a transform makes of the current object: the wanted object and warnings about the request (unknown fields). */
export interface TransformResult {
  readonly object: KubeObject;
  readonly warnings?: readonly string[];
  /** The object is this attempt's alone: the pipeline changes it in place rather than a copy. */
  readonly fresh?: boolean;
}

/**
 * Computes the wanted object from the current one, in the view the write
 * addresses (the parent, or its Scale): PUT answers the body, PATCH the patched
 * view; undefined on create and create-on-update. Runs inside storage's
 * guaranteed update, again on a lost race, so it must be free of side effects.
 * A resourceVersion it leaves set must match the stored one (409 otherwise).
 */
export type Transform = (current: KubeObject | undefined) => TransformResult | Promise<TransformResult>;

/** The registry's one write operation (registry/write/pipeline.ts). */
export interface WriteRequest extends WriteScope {
  /** create: a new object (POST); update: read the stored object and write it back (PUT, PATCH, subresources). */
  readonly verb: 'create' | 'update';
  /** update: the name on the URL; the object's own name must agree. */
  readonly name?: string;
  /** '' or absent: the main resource; else a declared subresource (status, scale, finalize). */
  readonly subresource?: string;
  readonly transform: Transform;
  /**
   * update of the main resource: may a missing object be created (when the
   * strategy allows create-on-update)? PUT: yes (the default); PATCH: no.
   */
  readonly allowCreate?: boolean;
}

/** One declared subresource of one resource; the same client for HTTP handlers and controllers. */
export interface SubresourceStore {
  /** status, scale, finalize, ... */
  readonly name: string;
  readonly declaration: SubresourceDefinition;
  /** What reads and writes answer with: the parent's kind, or responseKind (autoscaling/v1 Scale). */
  readonly kind: GroupVersionKind;
  get(opts: GetOptions): Promise<KubeObject>;
  /** PUT: the body is the wanted view. */
  update(obj: KubeObject, opts: UpdateOptions): Promise<WriteResult>;
  /** POST of a computing subresource (declaration.create); undefined for the others. */
  readonly create?: (body: KubeObject, opts: CreateOptions & { name: string }) => Promise<WriteResult>;
  /** GET of a streaming subresource (declaration.connect); undefined for the others. */
  readonly connect?: (opts: GetOptions & { query: URLSearchParams; signal: AbortSignal }) => Promise<StreamAnswer>;
}

export interface ResourceStore {
  readonly definition: ResourceDefinition;
  create(obj: KubeObject, opts?: CreateOptions): Promise<WriteResult>;
  get(opts: GetOptions): Promise<KubeObject>;
  list(opts?: ListOptions): Promise<KubeList>;
  update(obj: KubeObject, opts: UpdateOptions): Promise<UpdateResult>;
  /** The one write operation create and update are shorthands of: every write step, in one declared order. */
  write(request: WriteRequest): Promise<UpdateResult>;
  delete(opts: DeleteOptions): Promise<DeleteResult>;
  /** Deletes every matching object; answers the list of what was deleted. */
  deleteCollection(opts?: DeleteCollectionOptions): Promise<KubeList>;
  /** Follows changes; resolves once established. Close the handle to stop. */
  watch(opts: WatchOptions): Promise<StorageWatch>;
  /** A declared subresource (status, scale, finalize); undefined when the definition does not declare it. */
  subresource(name: string): SubresourceStore | undefined;
}
