// The built-in API groups. Each group version is a module whose factory takes
// what its kinds need at run time; builtinApis composes them, in discovery's
// order (core first; within a group, the preferred version first), and main.ts
// adds the result to the catalog. Adding a kind means adding it to its group's
// index and nothing else.
import type { ResourceDefinition } from '../registry/define-resource.js';
import { authenticationV1 } from './authentication/v1/index.js';
import { authenticationV1beta1 } from './authentication/v1beta1/index.js';
import { authorizationV1, type AuthorizationV1Dependencies } from './authorization/v1/index.js';
import { coreV1, coreV1Resources, type CoreV1Dependencies } from './core/v1/index.js';

export type BuiltinDependencies = CoreV1Dependencies & AuthorizationV1Dependencies;

/** Every built-in resource the server serves. */
export function builtinApis(deps: BuiltinDependencies): ResourceDefinition[] {
  return [...coreV1(deps), ...authenticationV1(), ...authenticationV1beta1(), ...authorizationV1(deps)];
}

/**
 * The built-in kinds that need nothing at run time, as declared: core/v1 without
 * the token subresource or allocator, and the authentication reviews (the access
 * review needs an authorizer, so it is absent). For tests and tools that serve
 * built-in kinds without a server around them.
 */
export const builtinResources: readonly ResourceDefinition[] = [...coreV1Resources, ...authenticationV1(), ...authenticationV1beta1()];
