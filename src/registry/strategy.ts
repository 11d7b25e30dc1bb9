// What a kind does differently from the generic store: its strategy hooks, the
// subresources it declares, and the contexts computed kinds receive. Kept apart
// from define-resource.ts (which says where a kind is served and what its schema
// is) so the write pipeline (registry/write/) and the kinds (apis/) share one
// vocabulary.
import type { FieldError } from '../schema/field-errors.js';
import type { Scope, Verb } from '../schema/api-resource.js';
import type { KubeObject } from '../schema/object.js';
import type { UserInfo } from '../schema/user.js';

/** How metadata.name is checked: DNS-1123 subdomain (most kinds), label (namespaces, services), or only path-safe. */
export type NameValidation = 'subdomain' | 'label' | 'path-segment';

/** The operation a write performs on the stored object (admission's CREATE or UPDATE). */
export type WriteOperation = 'CREATE' | 'UPDATE';

/**
 * What every strategy hook receives besides the objects: who writes, when (the
 * injected clock, never `new Date()`), where, and through which endpoint.
 */
export interface WriteContext {
  readonly operation: WriteOperation;
  /** Absent for in-process writes that name no user. */
  readonly user: UserInfo | undefined;
  readonly now: Date;
  /** The request's namespace; '' for cluster-scoped kinds. */
  readonly namespace: string;
  readonly dryRun: boolean;
  /** '' for the main resource; status, scale, finalize, ... */
  readonly subresource: string;
  /**
   * The group and version the request addressed (the served version), which may
   * differ from the stored version the strategy reads: kube's rules for a kind
   * served in several versions may depend on it (events: requestGroupVersion in
   * ValidateEventCreate is strict for events.k8s.io/v1, lenient for core/v1).
   */
  readonly requestVersion: { readonly group: string; readonly version: string };
}

/**
 * What a main-resource write may not set, declared per operation. On create the
 * paths are cleared (Pod status starts empty); on update they keep the stored
 * value whatever the request said (status changes only through /status). A Node
 * keeps the status it is created with, so it declares `update` only.
 */
export interface ResetFields {
  readonly create?: readonly string[];
  readonly update?: readonly string[];
}

export interface Strategy {
  readonly resetFields?: ResetFields;
  /**
   * kube's defaulting: runs right after decode, before mutating admission, on
   * create, update, patch and writes of subresources that carry the kind (status).
   * Fills what the client left out; mutates obj only.
   */
  readonly defaults?: (obj: KubeObject, ctx: WriteContext) => void;
  /** System fields on create (status a new object starts with, generation); mutates obj only. */
  readonly prepareForCreate?: (obj: KubeObject, ctx: WriteContext) => void;
  /** Carries over what an update may not change beyond resetFields; mutates next only. */
  readonly prepareForUpdate?: (next: KubeObject, prev: KubeObject, ctx: WriteContext) => void;
  /** Create, and update when validateUpdate is absent. */
  readonly validate?: (obj: KubeObject, ctx: WriteContext) => FieldError[];
  /** Update only, instead of validate (call validate from it when both apply). */
  readonly validateUpdate?: (next: KubeObject, prev: KubeObject, ctx: WriteContext) => FieldError[];
  /** Warning header texts for a valid object (prev: the stored object on update). */
  readonly warnings?: (obj: KubeObject, prev: KubeObject | undefined, ctx: WriteContext) => string[];
  /** Normalises an object before it is stored (e.g. drop empty maps). */
  readonly canonicalize?: (obj: KubeObject) => void;
  /** PUT of a missing object creates it (kube-apiserver: most kinds false). */
  readonly allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion overwrites (kube-apiserver: most kinds true). */
  readonly allowUnconditionalUpdate?: boolean;
  /**
   * A permission check on the object about to be written, beyond the request's verb
   * (RBAC's escalation prevention); throws a StatusError (403) to refuse. `prev` is
   * the stored object on update. Runs only for writes that name a user.
   */
  readonly authorizeWrite?: (obj: KubeObject, prev: KubeObject | undefined, ctx: WriteContext) => Promise<void>;
  /** DELETE answers with the object (pods) rather than a Success Status. */
  readonly returnDeletedObject?: boolean;
  /** Field-selector fields beyond metadata.name/metadata.namespace. */
  readonly selectableFields?: (obj: KubeObject) => Readonly<Record<string, string>>;
  /** Deletion held by the kind's own finalizers (namespaces: spec.finalizers); absent for most kinds. */
  readonly deletionHold?: DeletionHold;
}

/**
 * A kind whose DELETE first marks the object and keeps it while finalizers of its
 * own remain (kube's namespace REST Delete). The object is removed when a write
 * (e.g. /finalize) leaves both these and metadata.finalizers empty.
 */
export interface DeletionHold {
  /** The finalizers that keep a deleted object, beyond metadata.finalizers. */
  readonly finalizers: (obj: KubeObject) => readonly string[];
  /** Applied together with deletionTimestamp by the first DELETE (namespaces: phase Terminating); mutates obj only. */
  readonly markDeleting?: (obj: KubeObject) => void;
  /** A further DELETE while these finalizers remain answers 409 with this text rather than the object. */
  readonly conflictWhilePending?: string;
}

/** Where a Scale view reads and writes its parent (the CRD scale subresource's three paths). */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  /** A label-selector string, a LabelSelector, or a plain label map; rendered as a selector string. */
  readonly labelSelectorPath?: string;
}

export interface SubresourceDefinition {
  readonly verbs: readonly Verb[];
  /** The kind the subresource answers with when it differs (Scale). */
  readonly responseKind?: { readonly group: string; readonly version: string; readonly kind: string };
  /** status: writes change only this path of the parent; everything else is kept. */
  readonly path?: string;
  /**
   * Like path, for a subresource whose writes change several paths of the parent
   * (pods/binding: spec.nodeName, metadata.annotations, metadata.labels, status).
   */
  readonly paths?: readonly string[];
  /**
   * Like paths, for a subresource whose writes change what no fixed path names
   * (pods/resize: each container's resources and resizePolicy): copies what
   * survives of the request's view onto `next`, a mutable copy of the stored object.
   */
  readonly copyFromRequest?: (next: KubeObject, view: KubeObject) => void;
  /**
   * System fields a write through this subresource sets (pods/ephemeralcontainers
   * and pods/resize move metadata.generation, as a spec write does); absent: none,
   * as for status.
   */
  readonly prepareForUpdate?: (next: KubeObject, prev: KubeObject, ctx: WriteContext) => void;
  /**
   * Validation of a write through this subresource (kube's separate status
   * strategies); absent: the parent's validateUpdate (or validate). Scale writes
   * always run the parent's strategy instead.
   */
  readonly validateUpdate?: (next: KubeObject, prev: KubeObject, ctx: WriteContext) => FieldError[];
  /** The subresource is a Scale view of the parent (responseKind autoscaling/v1 Scale). */
  readonly scale?: ScalePaths;
  /**
   * A subresource whose POST computes an answer from the stored parent instead of
   * writing it (serviceaccounts/token): runs with the parent and the decoded body
   * (of responseKind) and answers 201 with what it returns. Declare verbs ['create'].
   */
  readonly create?: (parent: KubeObject, body: KubeObject, ctx: SubresourceCreateContext) => Promise<KubeObject>;
  /**
   * A subresource whose GET answers a stream of its own rather than an object
   * (pods/log: the container's log, from its node's kubelet): runs with the query
   * and reads the stored parent when it needs it (kube checks the options first).
   * Declare verbs ['get'].
   */
  readonly connect?: (ctx: SubresourceConnectContext) => Promise<StreamAnswer>;
  /** The query parameters a streaming subresource reads, as OpenAPI publishes them (PodLogOptions' fields). */
  readonly connectParameters?: readonly { readonly name: string; readonly type: 'string' | 'boolean' | 'integer' }[];
}

/** What a streaming subresource may use. */
export interface SubresourceConnectContext {
  /** The parent's name, as the URL gives it. */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The stored parent; a NotFound StatusError when there is none. */
  readonly parent: () => Promise<KubeObject>;
  /** Reads another stored object (the pod's Node); undefined when absent. */
  readonly getObject: SubresourceCreateContext['getObject'];
  /** Aborted when the client goes away or the server stops: whatever the stream holds open must close. */
  readonly signal: AbortSignal;
}

/** A streamed answer: 200 with this content type and these bytes, as they come; or 204, nothing to stream. */
export type StreamAnswer = { readonly contentType: string; readonly body: AsyncIterable<Uint8Array> } | { readonly noContent: true };

/** What a computing subresource may use besides its parent. */
export interface SubresourceCreateContext {
  readonly user: UserInfo | undefined;
  readonly dryRun: boolean;
  readonly now: Date;
  /** Reads another stored object (bound object references); undefined when absent. */
  readonly getObject: (kind: { group: string; plural: string; scope: Scope }, namespace: string, name: string) => Promise<KubeObject | undefined>;
}

/** What a computed read-only resource answers (componentstatuses): computed on every request, never stored. */
export interface VirtualRead {
  /** The object named `name`; undefined answers 404. */
  get(name: string): Promise<KubeObject | undefined>;
  /** Every object, in the order the list answers them. */
  list(): Promise<KubeObject[]>;
}

/** Request context handed to virtual resources (not stored: selfsubjectreviews). */
export interface VirtualCreateContext {
  readonly user: UserInfo;
  readonly namespace: string | undefined;
  readonly dryRun: boolean;
}

/**
 * A kind served in this version but stored as another (autoscaling/v1
 * HorizontalPodAutoscaler over autoscaling/v2, events.k8s.io/v1 Event over core
 * v1): one stored object, read and written through either version. The stored
 * definition's keys, strategy and subresources apply; of the served definition's
 * own strategy only what belongs to its version is read: `defaults` (its decoding
 * defaults) and `selectableFields` (its field labels, read from the stored object:
 * kube's field label conversion). Writes are schema-validated in the served
 * version. registry/store/version-codec.ts is where the functions are called.
 *
 * The functions convert whole objects (metadata included) and must be total: a
 * client of either version sees the other's writes. They must not change their
 * input (their answer may share parts of it), must keep metadata.labels (selectors
 * match the stored object), and may answer later (a Promise: a conversion webhook).
 * A StatusError they throw is the client's answer (400 for input they refuse);
 * anything else is a 500.
 */
export interface Conversion<Stored = unknown> {
  /** The definition of the version objects are stored as. */
  readonly stored: Stored;
  /** This version's object as the stored version. */
  readonly toStored: (obj: KubeObject) => KubeObject | Promise<KubeObject>;
  /** A stored object as this version's. */
  readonly fromStored: (obj: KubeObject) => KubeObject | Promise<KubeObject>;
}
