// FlowSchema and PriorityLevelConfiguration rules through the real registry:
// kube's v1 defaults (matchingPrecedence 1000; nominalConcurrencyShares 30 only
// when left out; queuing 64/8/50), the shape checks, generation, status only
// through /status, and the tables.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { flowSchemas } from '../../../src/apis/flowcontrol/v1/flow-schemas.js';
import { priorityLevelConfigurations } from '../../../src/apis/flowcontrol/v1/priority-level-configurations.js';
import { tableForObject } from '../../../src/registry/table.js';
import type { KubeObject } from '../../../src/schema/object.js';
import { createStoreHarness, type StoreHarness } from '../../support/store-harness.js';

let h: StoreHarness;
beforeEach(async () => {
  h = await createStoreHarness();
});
afterEach(async () => {
  await h.close();
});

const group = { kind: 'Group', group: { name: 'dev' } };
const podsRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] };
const fs = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name }, spec });
const pl = (name: string, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const level = { priorityLevelConfiguration: { name: 'workload-low' } };

describe('FlowSchema', () => {
  test('matchingPrecedence defaults to 1000; no distinguisher is defaulted; generation 1', async () => {
    const res = await h.create(flowSchemas, fs('d', { ...level, rules: [{ subjects: [group], resourceRules: [podsRule] }] }));
    expect(res.errors).toEqual([]);
    expect(res.stored!.spec).toEqual({ ...level, matchingPrecedence: 1000, rules: [{ subjects: [group], resourceRules: [podsRule] }] });
    expect(res.stored!.metadata.generation).toBe(1);
  });

  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    { name: 'no priority level', input: fs('x', {}), want: ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level'] },
    { name: 'precedence too high', input: fs('x', { ...level, matchingPrecedence: 10001 }), want: ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000'] },
    { name: 'negative precedence', input: fs('x', { ...level, matchingPrecedence: -1 }), want: ['spec.matchingPrecedence: Invalid value: -1: must be a positive value'] },
    { name: 'precedence 1 outside exempt', input: fs('x', { ...level, matchingPrecedence: 1 }), want: ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"] },
    {
      name: 'unknown distinguisher',
      input: fs('x', { ...level, distinguisherMethod: { type: 'ByColour' } }),
      want: ['spec.distinguisherMethod.type: Unsupported value: {"type":"ByColour"}: supported values: "ByNamespace", "ByUser"'],
    },
    {
      name: 'rule without subjects or rules',
      input: fs('x', { ...level, rules: [{}] }),
      want: ['spec.rules[0].subjects: Required value: subjects must contain at least one value', 'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty'],
    },
    {
      name: 'subject of a kind it does not carry',
      input: fs('x', { ...level, rules: [{ subjects: [{ kind: 'User', group: { name: 'g' } }], resourceRules: [podsRule] }] }),
      want: ["spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'", "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'"],
    },
    {
      name: 'bad verbs, wildcard mixes and namespaces',
      input: fs('x', { ...level, rules: [{ subjects: [group], resourceRules: [{ verbs: ['fly'], apiGroups: ['*', 'apps'], resources: ['pods'], namespaces: ['Bad'] }] }] }),
      want: [
        'spec.rules[0].resourceRules[0].verbs: Unsupported value: ["fly"]: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
        'spec.rules[0].resourceRules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other api groups',
        expect.stringMatching(/^spec\.rules\[0\]\.resourceRules\[0\]\.namespaces\[0\]: Invalid value: "Bad": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label/),
      ],
    },
    {
      name: 'non-resource URL not a suffix glob',
      input: fs('x', { ...level, rules: [{ subjects: [group], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/a*b'] }] }] }),
      want: ['spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a*b": wildcard can only do suffix matching'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.create(flowSchemas, c.input);
      expect(res.errors).toEqual(c.want);
      expect(res.stored).toBeUndefined();
    });
  }

  test('status only through /status; generation moves with spec', async () => {
    const { stored } = await h.create(flowSchemas, fs('s', { ...level, rules: [] }));
    const dangling = { type: 'Dangling', status: 'False', reason: 'Found', message: 'ok' };
    const main = await h.update(flowSchemas, { ...stored!, status: { conditions: [dangling] }, spec: { ...level, matchingPrecedence: 2000 } });
    expect(main.stored!.status ?? {}).toEqual({});
    expect(main.stored!.metadata.generation).toBe(2);
    const status = await h.updateStatus(flowSchemas, { ...main.stored!, status: { conditions: [dangling] }, spec: { ...level, matchingPrecedence: 3000 } });
    expect(status.errors).toEqual([]);
    expect(status.stored!.status).toEqual({ conditions: [dangling] });
    expect((status.stored!.spec as { matchingPrecedence: number }).matchingPrecedence).toBe(2000);
    expect((await h.updateStatus(flowSchemas, { ...status.stored!, status: { conditions: [dangling, dangling] } })).errors).toEqual(['status.conditions[1].type: Duplicate value: "Dangling"']);
  });

  test('table: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL', async () => {
    const { stored } = await h.create(flowSchemas, fs('t', { ...level }));
    const now = new Date(Date.parse(stored!.metadata.creationTimestamp!) + 5000);
    const opts = { table: flowSchemas.table, version: 'v1' as const, includeObject: 'None' as const, type: { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema' }, now };
    const t = tableForObject(stored!, opts);
    expect(t.columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    expect(t.rows[0]!.cells).toEqual(['t', 'workload-low', 1000, '<none>', '5s', '?']);
    const withStatus = { ...stored!, spec: { ...level, matchingPrecedence: 5, distinguisherMethod: { type: 'ByUser' } }, status: { conditions: [{ type: 'Dangling', status: 'True' }] } };
    expect(tableForObject(withStatus, opts).rows[0]!.cells).toEqual(['t', 'workload-low', 5, 'ByUser', '5s', 'True']);
  });
});

describe('PriorityLevelConfiguration', () => {
  test('Limited defaults: shares 30 when left out, lendable 0, queuing 64/8/50', async () => {
    const res = await h.create(priorityLevelConfigurations, pl('l', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }));
    expect(res.errors).toEqual([]);
    expect(res.stored!.spec).toEqual({
      type: 'Limited',
      limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } },
    });
  });

  test('an explicit 0 shares is kept; Exempt defaults its fields to 0', async () => {
    const zero = await h.create(priorityLevelConfigurations, pl('z', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } }));
    expect(zero.stored!.spec).toEqual({ type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, limitResponse: { type: 'Reject' } } });
    const exempt = await h.create(priorityLevelConfigurations, pl('exempt', { type: 'Exempt', exempt: {} }));
    expect(exempt.stored!.spec).toEqual({ type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });
  });

  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    { name: 'unknown type', input: pl('x', { type: 'Sometimes' }), want: ['spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"'] },
    { name: 'Exempt outside the exempt level', input: pl('x', { type: 'Exempt' }), want: ['spec.type: Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\''] },
    { name: 'Limited without limited', input: pl('x', { type: 'Limited' }), want: ['spec.limited: Required value: must not be empty when type is Limited'] },
    {
      name: 'negative shares and lendable over 100',
      input: pl('x', { type: 'Limited', limited: { nominalConcurrencyShares: -1, lendablePercent: 101, limitResponse: { type: 'Reject' } } }),
      want: ['spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer', 'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive'],
    },
    {
      name: 'hand size above queues',
      input: pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: 1 } } } }),
      want: ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)'],
    },
    {
      name: 'hand size needing too much entropy',
      input: pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 10_000_000, handSize: 10, queueLengthLimit: 1 } } } }),
      want: ['spec.limited.limitResponse.queuing.handSize: Invalid value: 10: required entropy bits of deckSize 10000000 and handSize 10 should not be greater than 60'],
    },
    {
      name: 'queuing with Reject',
      input: pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Reject', queuing: { queues: 1 } } } }),
      want: ['spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited'],
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await h.create(priorityLevelConfigurations, c.input);
      expect(res.errors).toEqual(c.want);
      expect(res.stored).toBeUndefined();
    });
  }

  test('table: NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE', async () => {
    const limited = (await h.create(priorityLevelConfigurations, pl('l', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }))).stored!;
    const exempt = (await h.create(priorityLevelConfigurations, pl('exempt', { type: 'Exempt' }))).stored!;
    const opts = { table: priorityLevelConfigurations.table, version: 'v1' as const, includeObject: 'None' as const, type: { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration' }, now: new Date(Date.parse(limited.metadata.creationTimestamp!)) };
    expect(tableForObject(limited, opts).columnDefinitions!.map((c) => c.name)).toEqual(['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
    expect(tableForObject(limited, opts).rows[0]!.cells).toEqual(['l', 'Limited', 30, 64, 8, 50, '0s']);
    expect(tableForObject(exempt, opts).rows[0]!.cells).toEqual(['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '0s']);
  });
});
