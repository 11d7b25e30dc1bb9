// The built-in API groups. Each group version is a module whose factory takes
// what its kinds need at run time; builtinApis composes them, in discovery's
// order (core first; within a group, the preferred version first), and main.ts
// adds the result to the catalog. Adding a kind means adding it to its group's
// index and nothing else.
import type { EscalationGuard } from '../auth/authz/rbac/escalation.js';
import type { ResourceDefinition } from '../registry/define-resource.js';
import { authenticationV1, type AuthenticationV1Dependencies } from './authentication/v1/index.js';
import { authenticationV1beta1 } from './authentication/v1beta1/index.js';
import { authorizationV1, type AuthorizationV1Dependencies } from './authorization/v1/index.js';
import { coreV1, coreV1Resources, type CoreV1Dependencies } from './core/v1/index.js';
import { apiregistrationV1 } from './apiregistration/v1/index.js';
import { appsV1 } from './apps/v1/index.js';
import { eventsV1 } from './events/v1/index.js';
import { autoscalingV1 } from './autoscaling/v1/index.js';
import { autoscalingV2 } from './autoscaling/v2/index.js';
import type { HpaFeatures } from './autoscaling/v2/hpa-validation.js';
import { batchV1 } from './batch/v1/index.js';
import { certificatesV1 } from './certificates/v1/index.js';
import { networkingV1 } from './networking/v1/index.js';
import { policyV1 } from './policy/v1/index.js';
import { rbacV1 } from './rbac/v1/index.js';
import { storageV1 } from './storage/v1/index.js';
import { admissionregistrationV1 } from './admissionregistration/v1/index.js';
import { apiextensionsV1 } from './apiextensions/v1/index.js';
import { schedulingV1 } from './scheduling/v1/index.js';
import { coordinationV1 } from './coordination/v1/index.js';
import { nodeV1 } from './node/v1/index.js';
import { discoveryV1 } from './discovery/v1/index.js';
import { flowcontrolV1 } from './flowcontrol/v1/index.js';
import { resourceV1 } from './resource/v1/index.js';

export type BuiltinDependencies = CoreV1Dependencies &
  AuthorizationV1Dependencies & {
    readonly authentication?: AuthenticationV1Dependencies;
    readonly escalation?: EscalationGuard;
    /** The feature gates HPA rules read (HPAScaleToZero); absent, kube's defaults. */
    readonly hpa?: HpaFeatures;
  };

/** Every built-in resource the server serves. */
export function builtinApis(deps: BuiltinDependencies): ResourceDefinition[] {
  const autoscaling = autoscalingV2(deps.hpa);
  const horizontalPodAutoscalers = autoscaling.find((d) => d.plural === 'horizontalpodautoscalers')!;
  return [
    ...coreV1(deps),
    ...apiregistrationV1(),
    ...appsV1(),
    ...eventsV1(),
    ...authenticationV1(deps.authentication),
    ...authenticationV1beta1(),
    ...authorizationV1(deps),
    ...autoscaling,
    ...autoscalingV1({ horizontalPodAutoscalers }),
    ...batchV1(),
    ...certificatesV1(),
    ...networkingV1(),
    ...policyV1(),
    ...rbacV1(deps.escalation === undefined ? {} : { escalation: deps.escalation }),
    ...storageV1(),
    ...admissionregistrationV1(),
    ...apiextensionsV1(),
    ...schedulingV1(),
    ...coordinationV1(),
    ...nodeV1(),
    ...discoveryV1(),
    ...flowcontrolV1(),
    ...resourceV1(),
  ];
}

/**
 * The built-in kinds that need nothing at run time, as declared: core/v1 without
 * the token subresource or allocator, and the authentication reviews (the access
 * review needs an authorizer, so it is absent). For tests and tools that serve
 * built-in kinds without a server around them.
 */
export const builtinResources: readonly ResourceDefinition[] = [...coreV1Resources, ...authenticationV1(), ...authenticationV1beta1()];
