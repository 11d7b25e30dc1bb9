// One resource = one declaration. A ResourceDefinition says everything the
// generic layers need: the installer routes its verbs, discovery and OpenAPI
// publish it, the generic store runs its strategy. Nobody writes a handler per
// resource; differences live in the strategy or in data (resetFields, subresources).
import type { FieldError } from '../errors/field-errors.js';
import { ALL_VERBS, type Scope, type Verb } from '../schema/api-resource.js';
import { definitionNameForGvk } from '../schema/definitions.js';
import type { KubeObject } from '../schema/object.js';
import type { UserInfo } from '../schema/user.js';
import type { TableDefinition } from './table.js';

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

export interface ResourceDefinition {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  /** The resource name: lower-case plural. */
  readonly plural: string;
  readonly singular: string;
  readonly scope: Scope;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly verbs: readonly Verb[];
  /** OpenAPI definition name of the kind, e.g. io.k8s.api.core.v1.ConfigMap. */
  readonly schemaName: string;
  readonly nameValidation: NameValidation;
  readonly strategy: Strategy;
  readonly subresources: Readonly<Record<string, SubresourceDefinition>>;
  /**
   * A resource that is computed, not stored: only `create` is served and answers
   * with what this returns (SelfSubjectReview, TokenReview).
   */
  readonly virtualCreate?: (obj: KubeObject, ctx: VirtualCreateContext) => KubeObject | Promise<KubeObject>;
  /** `kubectl get` columns (registry/table.ts); absent means kube's default Name and Created At. */
  readonly table?: TableDefinition;
}

export type ResourceDeclaration = Pick<ResourceDefinition, 'group' | 'version' | 'kind' | 'plural' | 'scope'> &
  Partial<Omit<ResourceDefinition, 'group' | 'version' | 'kind' | 'plural' | 'scope'>>;

/**
 * The OpenAPI definition that declares this group/version/kind. Go package names
 * do not follow the group name (rbac.authorization.k8s.io is io.k8s.api.rbac.v1),
 * so the generated table is asked; kinds it lacks get a derived name.
 */
function defaultSchemaName(decl: ResourceDeclaration): string {
  const known = definitionNameForGvk({ group: decl.group, version: decl.version, kind: decl.kind });
  if (known !== undefined) return known;
  const groupPart = decl.group === '' ? 'core' : decl.group.split('.').reverse().join('.').replace(/^io\.k8s\./, '');
  return `io.k8s.api.${groupPart}.${decl.version}.${decl.kind}`;
}

/** Fills the defaults so a plain stored kind is a dozen lines. */
export function defineResource(decl: ResourceDeclaration): ResourceDefinition {
  return {
    listKind: `${decl.kind}List`,
    singular: decl.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: decl.virtualCreate === undefined ? ALL_VERBS : ['create'],
    schemaName: decl.schemaName ?? defaultSchemaName(decl),
    nameValidation: 'subdomain',
    strategy: {},
    subresources: {},
    ...decl,
  };
}
