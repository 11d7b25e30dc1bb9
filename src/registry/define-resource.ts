// One resource = one declaration. A ResourceDefinition says everything the
// generic layers need: the installer routes its verbs, discovery and OpenAPI
// publish it, the generic store runs its strategy. Nobody writes a handler per
// resource; differences live in the strategy or in data (resetFields, subresources).
// Definitions are values: the served set is the catalog (catalog.ts), and what a
// kind needs at run time (a token signer, an allocator) is composed in by its
// group's factory (apis/**/index.ts), never patched in by identity.
import { ALL_VERBS, type Scope, type Verb } from '../schema/api-resource.js';
import type { Allocator } from './allocation.js';
import type { Conversion, NameValidation, Strategy, SubresourceDefinition, VirtualCreateContext, VirtualRead } from './strategy.js';
import { builtinSchema, definitionNameForGvk, type ResourceSchema } from '../schema/definitions.js';
import type { KubeObject } from '../schema/object.js';
import type { TableDefinition } from './table.js';

export type * from './strategy.js';

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
  /**
   * The kind's schema: its root definition (io.k8s.api.core.v1.ConfigMap) and the
   * table that definition's $refs resolve in. Typed decoding, strategic merge and
   * OpenAPI read it; a name the table lacks checks nothing and publishes a
   * schemaless object.
   */
  readonly schema: ResourceSchema;
  readonly nameValidation: NameValidation;
  readonly strategy: Strategy;
  readonly subresources: Readonly<Record<string, SubresourceDefinition>>;
  /**
   * A resource that is computed, not stored: only `create` is served and answers
   * with what this returns (SelfSubjectReview, TokenReview).
   */
  readonly virtualCreate?: (obj: KubeObject, ctx: VirtualCreateContext) => KubeObject | Promise<KubeObject>;
  /** A resource computed on every read, not stored (componentstatuses): only get and list are served. */
  readonly virtualRead?: VirtualRead;
  /**
   * kube's deprecation warning ("v1 ComponentStatus is deprecated in v1.19+"),
   * sent as a Warning header on every request to the resource.
   */
  readonly deprecationWarning?: string;
  /** `kubectl get` columns (registry/table.ts); absent means kube's default Name and Created At. */
  readonly table?: TableDefinition;
  /** Values taken from a pool shared by every object of the kind (services: cluster IPs, node ports). */
  readonly allocator?: Allocator;
  /** Served in this version, stored as another (strategy.ts Conversion; registry/store/version-codec.ts). */
  readonly conversion?: Conversion<ResourceDefinition>;
}

export type ResourceDeclaration = Pick<ResourceDefinition, 'group' | 'version' | 'kind' | 'plural' | 'scope'> &
  Partial<Omit<ResourceDefinition, 'group' | 'version' | 'kind' | 'plural' | 'scope'>>;

/**
 * The OpenAPI definition that declares this group/version/kind. Go package names
 * do not follow the group name (rbac.authorization.k8s.io is io.k8s.api.rbac.v1),
 * so the generated table is asked; kinds it lacks get a derived name.
 */
function defaultSchema(decl: ResourceDeclaration): ResourceSchema {
  const known = definitionNameForGvk({ group: decl.group, version: decl.version, kind: decl.kind });
  if (known !== undefined) return builtinSchema(known);
  const groupPart = decl.group === '' ? 'core' : decl.group.split('.').reverse().join('.').replace(/^io\.k8s\./, '');
  return builtinSchema(`io.k8s.api.${groupPart}.${decl.version}.${decl.kind}`);
}

/** Fills the defaults so a plain stored kind is a dozen lines. */
export function defineResource(decl: ResourceDeclaration): ResourceDefinition {
  return {
    listKind: `${decl.kind}List`,
    singular: decl.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    verbs: decl.virtualCreate !== undefined ? ['create'] : decl.virtualRead !== undefined ? ['get', 'list'] : ALL_VERBS,
    schema: decl.schema ?? defaultSchema(decl),
    nameValidation: 'subdomain',
    strategy: {},
    subresources: {},
    ...decl,
  };
}
