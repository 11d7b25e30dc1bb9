import type { KubeObject } from '../../src/schema/object.js';
import { gadgets, widgets } from '../support/example-group.js';
import { describeResource } from './resource-tester.js';

describeResource({
  definition: widgets,
  collection: '/apis/example.test/v1/namespaces/default/widgets',
  valid: { apiVersion: 'example.test/v1', kind: 'Widget', metadata: { labels: { app: 'w' } }, spec: { size: 1 } },
  invalid: [
    { name: 'negative size', object: { metadata: {}, spec: { size: -1 } }, wantField: 'spec.size' },
    { name: 'bad label value', object: { metadata: { labels: { app: 'a b' } }, spec: {} }, wantField: 'metadata.labels' },
    { name: 'upper-case name via generateName', object: { metadata: { generateName: 'Bad-' }, spec: {} }, wantField: 'metadata.generateName' },
  ],
  update: (obj: KubeObject) => ({ ...obj, spec: { size: 2 } }),
});

describeResource({
  definition: gadgets,
  collection: '/apis/example.test/v1/gadgets',
  valid: { metadata: {}, data: { k: 'v' } },
  invalid: [],
  update: (obj: KubeObject) => ({ ...obj, data: { k: 'w' } }),
});
