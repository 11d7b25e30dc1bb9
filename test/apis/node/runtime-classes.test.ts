// RuntimeClass rules through the real store: the handler (a DNS label, fixed),
// overhead quantities, scheduling node selector and tolerations, and the columns.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runtimeClasses } from '../../../src/apis/node/v1/index.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const rc = (rest: Omit<KubeObject, 'metadata'>): KubeObject => ({ metadata: { name: 'gvisor' }, ...rest });
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const cases: { name: string; input: KubeObject; want: string[] }[] = [
  { name: 'handler with overhead and scheduling', input: rc({ handler: 'runsc', overhead: { podFixed: { cpu: '250m', memory: '64Mi' } }, scheduling: { nodeSelector: { sandbox: 'true' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] } }), want: [] },
  { name: 'handler not a DNS label', input: rc({ handler: 'run.sc' }), want: ['handler: Invalid value: "run.sc": must not contain dots'] },
  { name: 'empty handler', input: rc({ handler: '' }), want: [`handler: Invalid value: "": ${LABEL_MSG}`] },
  { name: 'negative overhead', input: rc({ handler: 'runc', overhead: { podFixed: { cpu: '-1' } } }), want: ['overhead.podFixed[cpu]: Invalid value: "-1": must be greater than or equal to 0'] },
  {
    name: 'scheduling: bad node selector value, toleration value with Exists',
    input: rc({ handler: 'runc', scheduling: { nodeSelector: { a: 'b c' }, tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } }),
    want: [
      "scheduling.nodeSelector: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      "scheduling.tolerations[0].operator: Invalid value: \"Exists\": value must be empty when `operator` is 'Exists'",
    ],
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const res = await h.create(runtimeClasses, c.input);
    expect(res.errors).toEqual(c.want);
    if (c.want.length === 0) expect(res.stored).toBeDefined();
    else expect(res.stored).toBeUndefined();
  });
}

test('the handler is immutable; scheduling may change', async () => {
  await h.create(runtimeClasses, rc({ handler: 'runc' }));
  const changed = await h.update(runtimeClasses, rc({ handler: 'crun' }));
  expect(changed.causes).toEqual([{ field: 'handler', reason: 'FieldValueInvalid', message: 'Invalid value: "crun": field is immutable' }]);
  expect(changed.stored?.handler).toBe('runc');
  const ok = await h.update(runtimeClasses, rc({ handler: 'runc', scheduling: { nodeSelector: { os: 'linux' } } }));
  expect(ok.errors).toEqual([]);
  expect(ok.stored?.scheduling).toEqual({ nodeSelector: { os: 'linux' } });
});

test('columns: NAME HANDLER AGE', () => {
  const table = runtimeClasses.table!;
  expect(table.columns.map((c) => c.name)).toEqual(['Name', 'Handler', 'Age']);
  expect(table.cells({ metadata: { name: 'x', creationTimestamp: '2026-01-02T03:04:00Z' }, handler: 'runc' }, new Date('2026-01-02T03:05:00Z'))).toEqual(['x', 'runc', '60s']);
});
