// The Kubernetes libraries, in the order they are registered.
import { authzLibrary, authzSelectorsLibrary } from './authz.js';
import { ipLibrary } from './ip.js';
import type { CelLibrary } from './library.js';
import { listsLibrary } from './lists.js';
import { quantityLibrary } from './quantity.js';
import { regexLibrary } from './regex.js';
import { semverLibrary } from './semver.js';
import { stringsLibrary } from './strings.js';
import { urlsLibrary } from './urls.js';

export const KUBERNETES_LIBRARIES: readonly CelLibrary[] = [
  stringsLibrary, listsLibrary, regexLibrary, urlsLibrary, ipLibrary, quantityLibrary, semverLibrary, authzLibrary,
];

/** Feature gates that change which functions exist (kube-apiserver's --feature-gates). */
export interface CelFeatureGates {
  /** AuthorizeWithSelectors: fieldSelector/labelSelector on the authorizer's resource checks. */
  readonly authorizeWithSelectors?: boolean;
}

export function kubernetesLibraries(gates: CelFeatureGates = {}): readonly CelLibrary[] {
  return gates.authorizeWithSelectors === true ? [...KUBERNETES_LIBRARIES, authzSelectorsLibrary] : KUBERNETES_LIBRARIES;
}
