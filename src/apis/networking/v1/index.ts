// networking.k8s.io/v1: ingresses and their classes, network policies, and the
// IP address and service CIDR objects of service IP allocation, in discovery's
// (alphabetical) order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { ingressClasses } from './ingress-classes.js';
import { ingresses } from './ingresses.js';
import { ipAddresses } from './ip-addresses.js';
import { networkPolicies } from './network-policies.js';
import { serviceCIDRs } from './service-cidrs.js';

export { ingressClasses, ingresses, ipAddresses, networkPolicies, serviceCIDRs };

export function networkingV1(): ResourceDefinition[] {
  return [ingressClasses, ingresses, ipAddresses, networkPolicies, serviceCIDRs];
}
