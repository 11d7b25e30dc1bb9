// certificates.k8s.io/v1: the group version's kinds, in discovery's order.
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { certificateSigningRequests } from './certificate-signing-requests.js';

export function certificatesV1(): ResourceDefinition[] {
  return [certificateSigningRequests];
}
