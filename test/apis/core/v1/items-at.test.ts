import { describe, expect, test } from 'vitest';
import { arrayAt, itemsAt } from '../../../../src/apis/core/v1/helpers.js';

describe('itemsAt', () => {
  test('answers the object items arrayAt answers, the list itself when every item is an object', () => {
    const containers = [{ name: 'a' }, { name: 'b' }, []];
    const spec = { containers };
    expect(itemsAt(spec, 'containers')).toBe(containers);
    expect(itemsAt(spec, 'containers')).toEqual(arrayAt(spec, 'containers'));
  });

  test('a list with other items is filtered into a copy, the list left as it was', () => {
    const mixed = [{ name: 'a' }, null, 'x', 3, { name: 'b' }];
    const spec = { containers: mixed };
    const items = itemsAt(spec, 'containers');
    expect(items).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(items).not.toBe(mixed);
    expect(mixed).toHaveLength(5);
  });

  test('nothing for a missing, inherited or non-list field, or a non-object parent', () => {
    expect(itemsAt({}, 'containers')).toEqual([]);
    expect(itemsAt({ containers: { a: {} } }, 'containers')).toEqual([]);
    expect(itemsAt(JSON.parse('{"__proto__":[{"a":1}]}'), 'constructor')).toEqual([]);
    expect(itemsAt([[{ a: 1 }]], '0')).toEqual([]);
    expect(itemsAt(undefined, 'containers')).toEqual([]);
    expect(itemsAt(JSON.parse('{"__proto__":[{"a":1}]}'), '__proto__')).toEqual([{ a: 1 }]);
  });
});
