// What discovery says of every resource (metav1.APIResource): the verbs it serves
// and whether it lives in a namespace. Endpoints, discovery, OpenAPI, the registry and
// authorization all speak this vocabulary, so it sits in schema/, below all of them.

/** Namespaced or cluster-wide (APIResource.namespaced; a CRD's spec.scope). */
export type Scope = 'Namespaced' | 'Cluster';

/** The API verbs a resource serves (APIResource.verbs). */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
