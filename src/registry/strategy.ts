// What a kind does differently from the generic store: its strategy hooks, the
// subresources it declares, and the contexts computed kinds receive. Kept apart
// from define-resource.ts (which says where a kind is served and what its schema
// is) so the write pipeline (registry/write/) and the kinds (apis/) share one
// vocabulary.
import type { FieldError } from '../errors/field-errors.js';
import type { Scope, Verb } from '../schema/api-resource.js';
import type { KubeObject } from '../schema/object.js';
import type { UserInfo } from '../schema/user.js';

/** How metadata.name is checked: DNS-1123 subdomain (most kinds), label (namespaces, services), or only path-safe. */
export type NameValidation = 'subdomain' | 'label' | 'path-segment';

export interface Strategy {
  /** Fields a write to the main resource may not set; the stored value is kept (status). */
  readonly resetFields?: readonly string[];
  /** Defaulting and system fields on create; mutates obj only. */
  readonly prepareForCreate?: (obj: KubeObject) => void;
  /** Carries over what an update may not change; mutates next only. */
  readonly prepareForUpdate?: (next: KubeObject, prev: KubeObject) => void;
  readonly validate?: (obj: KubeObject) => FieldError[];
  readonly validateUpdate?: (next: KubeObject, prev: KubeObject) => FieldError[];
  /** Warning header texts for a valid object. */
  readonly warnings?: (obj: KubeObject, prev?: KubeObject) => string[];
  /** Normalises an object before it is stored (e.g. drop empty maps). */
  readonly canonicalize?: (obj: KubeObject) => void;
  /** PUT of a missing object creates it (kube-apiserver: most kinds false). */
  readonly allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion overwrites (kube-apiserver: most kinds true). */
  readonly allowUnconditionalUpdate?: boolean;
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
   * Validation of a write through this subresource (kube's separate status
   * strategies); absent: the parent's validateUpdate (or validate). Scale writes
   * always run the parent's strategy instead.
   */
  readonly validateUpdate?: (next: KubeObject, prev: KubeObject) => FieldError[];
  /** The subresource is a Scale view of the parent (responseKind autoscaling/v1 Scale). */
  readonly scale?: ScalePaths;
  /**
   * A subresource whose POST computes an answer from the stored parent instead of
   * writing it (serviceaccounts/token): runs with the parent and the decoded body
   * (of responseKind) and answers 201 with what it returns. Declare verbs ['create'].
   */
  readonly create?: (parent: KubeObject, body: KubeObject, ctx: SubresourceCreateContext) => Promise<KubeObject>;
}

/** What a computing subresource may use besides its parent. */
export interface SubresourceCreateContext {
  readonly user: UserInfo | undefined;
  readonly dryRun: boolean;
  readonly now: Date;
  /** Reads another stored object (bound object references); undefined when absent. */
  readonly getObject: (kind: { group: string; plural: string; scope: Scope }, namespace: string, name: string) => Promise<KubeObject | undefined>;
}

/** Request context handed to virtual resources (not stored: selfsubjectreviews). */
export interface VirtualCreateContext {
  readonly user: UserInfo;
  readonly namespace: string | undefined;
  readonly dryRun: boolean;
}
