// The chunked-list bench's checker must be able to fail: each row is a way a
// list can differ from the state at its resourceVersion, or a write's revision
// can contradict timing, and the checker has to name it.
import { describe, expect, test } from 'vitest';
import { compare, stateAt, timingFaults, type WriteResult } from '../../bench/watch-cache-chunked-list.js';

const start = new Map([
  ['cl-000000', 10n],
  ['cl-000001', 11n],
  ['cl-000002', 12n],
]);
const w = (op: WriteResult['op'], name: string, rv: bigint, sentAt = 0, answeredAt = 0): WriteResult => ({ op, name, resourceVersion: rv, sentAt, answeredAt });
const writes = [w('update', 'cl-000000', 13n), w('create', 'cl-000003', 14n), w('delete', 'cl-000001', 15n), w('update', 'cl-000002', 16n)];

describe('stateAt', () => {
  const cases = [
    { name: 'before any write', at: 12n, want: [['cl-000000', 10n], ['cl-000001', 11n], ['cl-000002', 12n]] },
    { name: 'update and create applied', at: 14n, want: [['cl-000000', 13n], ['cl-000001', 11n], ['cl-000002', 12n], ['cl-000003', 14n]] },
    { name: 'delete applied, later update not', at: 15n, want: [['cl-000000', 13n], ['cl-000002', 12n], ['cl-000003', 14n]] },
  ] as const;
  for (const c of cases) {
    test(c.name, () => {
      const got = stateAt({ start, startRv: 12n, writes: [...writes].reverse(), at: c.at });
      expect(got.faults).toEqual([]);
      expect([...got.state].sort()).toEqual([...c.want]);
    });
  }
  test('a write at or before the starting version is a fault', () => {
    expect(stateAt({ start, startRv: 12n, writes: [w('update', 'cl-000000', 12n)], at: 20n }).faults[0]).toMatch(/not after the quiescent/);
  });
  test('a delete not after the object’s last write is a fault', () => {
    expect(stateAt({ start, startRv: 9n, writes: [w('delete', 'cl-000002', 11n)], at: 20n }).faults[0]).toMatch(/DELETE cl-000002 .* not after the object's 12/);
  });
});

describe('compare', () => {
  const expected = new Map([
    ['cl-000000', 13n],
    ['cl-000002', 12n],
  ]);
  const item = (name: string, rv: bigint) => ({ name, resourceVersion: rv });
  const cases = [
    { name: 'exact', listed: [item('cl-000000', 13n), item('cl-000002', 12n)], want: [] },
    { name: 'foreign names are ignored', listed: [item('cl-000000', 13n), item('cl-000002', 12n), item('kube-root-ca.crt', 1n)], want: [] },
    { name: 'missing', listed: [item('cl-000000', 13n)], want: [/cl-000002 \(rv 12\) missing/] },
    { name: 'extra', listed: [item('cl-000000', 13n), item('cl-000001', 11n), item('cl-000002', 12n)], want: [/cl-000001 .* absent/] },
    { name: 'stale', listed: [item('cl-000000', 10n), item('cl-000002', 12n)], want: [/listed at rv 10, the state has rv 13/] },
    { name: 'twice', listed: [item('cl-000000', 13n), item('cl-000000', 13n), item('cl-000002', 12n)], want: [/not key order/, /listed twice/] },
    { name: 'out of key order', listed: [item('cl-000002', 12n), item('cl-000000', 13n)], want: [/cl-000000 came after cl-000002/] },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const got = compare(c.listed, expected);
      expect(got).toHaveLength(c.want.length);
      c.want.forEach((re, i) => expect(got[i]).toMatch(re));
    });
  }
});

describe('timingFaults', () => {
  const list = { at: 20n, firstSent: 100, firstAnswered: 200 };
  const cases = [
    { name: 'finished before the list, at or below its version', write: w('update', 'a', 20n, 10, 90), want: 0 },
    { name: 'finished before the list, above its version', write: w('update', 'a', 21n, 10, 90), want: 1 },
    { name: 'began after the first chunk, above its version', write: w('create', 'a', 21n, 210, 250), want: 0 },
    { name: 'began after the first chunk, at its version', write: w('delete', 'a', 20n, 210, 250), want: 1 },
    { name: 'in flight across the first chunk: either way', write: w('update', 'a', 25n, 150, 250), want: 0 },
  ];
  for (const c of cases) test(c.name, () => expect(timingFaults([c.write], list)).toHaveLength(c.want));
});
