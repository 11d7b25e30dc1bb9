// ValidatingWebhookConfiguration and MutatingWebhookConfiguration: stored,
// defaulted and validated as kube-apiserver does. Not enforced yet: kapi's
// admission chain calls no webhooks (TODO(#10): the webhook admission plugins).
import { defineResource, type ResourceDefinition } from '../../../registry/define-resource.js';
import { AGE_COLUMN, NAME_COLUMN, ageOf, column, nameOf, type TableDefinition } from '../../../registry/table.js';
import { bumpGenerationIfChanged } from '../../core/v1/helpers.js';
import { defaultWebhooks, validateWebhookConfiguration, type WebhookKind } from './webhooks.js';

const webhookTable: TableDefinition = {
  columns: [NAME_COLUMN, column({ name: 'Webhooks', type: 'integer', description: 'Webhooks indicates the number of webhooks registered in this configuration.' }), AGE_COLUMN],
  cells: (obj, now) => [nameOf(obj), Array.isArray(obj.webhooks) ? obj.webhooks.length : 0, ageOf(obj, now)],
};

function webhookConfigurations(kind: WebhookKind): ResourceDefinition {
  const Kind = kind === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration';
  return defineResource({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: Kind,
    plural: `${Kind.toLowerCase()}s`,
    scope: 'Cluster',
    categories: ['api-extensions'],
    table: webhookTable,
    strategy: {
      defaults: (obj) => defaultWebhooks(obj, kind),
      prepareForCreate: (obj) => {
        obj.metadata.generation = 1;
      },
      // kube's strategy moves generation when the webhooks change.
      prepareForUpdate: (next, prev) => bumpGenerationIfChanged(next, prev, 'webhooks'),
      validate: (obj) => validateWebhookConfiguration(obj, kind),
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: true,
    },
  });
}

export const validatingWebhookConfigurations = webhookConfigurations('validating');
export const mutatingWebhookConfigurations = webhookConfigurations('mutating');
