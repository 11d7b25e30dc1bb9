// admissionregistration.k8s.io/v1: webhook configurations and admission
// policies with their bindings, stored, defaulted and validated as kube does
// (CEL expressions compiled on write). None is enforced yet: kapi's admission
// chain has no webhook or policy plugin (TODO(#10)).
import type { ResourceDefinition } from '../../../registry/define-resource.js';
import { mutatingAdmissionPolicies, mutatingAdmissionPolicyBindings, validatingAdmissionPolicies, validatingAdmissionPolicyBindings } from './policy-kinds.js';
import { mutatingWebhookConfigurations, validatingWebhookConfigurations } from './webhook-configurations.js';

export {
  mutatingAdmissionPolicies,
  mutatingAdmissionPolicyBindings,
  mutatingWebhookConfigurations,
  validatingAdmissionPolicies,
  validatingAdmissionPolicyBindings,
  validatingWebhookConfigurations,
};

/** In discovery's order. */
export function admissionregistrationV1(): ResourceDefinition[] {
  return [
    mutatingAdmissionPolicies,
    mutatingAdmissionPolicyBindings,
    mutatingWebhookConfigurations,
    validatingAdmissionPolicies,
    validatingAdmissionPolicyBindings,
    validatingWebhookConfigurations,
  ];
}
