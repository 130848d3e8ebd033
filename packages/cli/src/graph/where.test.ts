import { describe, expect, it } from 'vitest';
import { nodeQueryOf } from './node-query-flags.js';
import { parseTags } from './tag-args.js';
import { parseWhere } from './where.js';

describe('--where', () => {
  it('reads symbols and words, and types the value', () => {
    expect(parseWhere('customprop_department = Engineering')).toEqual({
      fn: 'EQ',
      property: 'customprop_department',
      value: 'Engineering',
    });
    expect(parseWhere('is_active=true')).toEqual({ fn: 'EQ', property: 'is_active', value: true });
    expect(parseWhere('level >= 10')).toEqual({ fn: 'GTE', property: 'level', value: 10 });
    expect(parseWhere('name ~ "bo b"')).toEqual({ fn: 'CONTAINS', property: 'name', value: 'bo b' });
    expect(parseWhere("name = '42'")).toEqual({ fn: 'EQ', property: 'name', value: '42' });
    expect(parseWhere('email ^= bob')).toMatchObject({ fn: 'STARTS_WITH' });
    expect(parseWhere('email $= .org')).toMatchObject({ fn: 'ENDS_WITH' });
    expect(parseWhere('created_at lt 2024-01-01T00:00:00Z')).toEqual({
      fn: 'LT',
      property: 'created_at',
      value: '2024-01-01T00:00:00Z',
    });
    expect(parseWhere('name not_eq x')).toMatchObject({ fn: 'NOT_EQ' });
  });

  it('refuses what is not property OPERATOR value', () => {
    for (const bad of ['name', 'name =', '= x', 'name like x'])
      expect(() => parseWhere(bad)).toThrow(/is not 'property OPERATOR value'/);
  });
});

describe('oaa query nodes flags', () => {
  it('builds the node query', () => {
    expect(
      nodeQueryOf({
        type: ['OAA.wiki.User'],
        where: ['is_active = true'],
        to: ['OAA.wiki.space.Resource'],
        permission: ['dataread', 'DataWrite'],
        'all-permissions': true,
      }),
    ).toEqual({
      query_type: 'SOURCE_TO_DESTINATION',
      source_node_types: {
        nodes: [
          {
            node_type: 'OAA.wiki.User',
            condition_expression: { specs: [{ fn: 'EQ', property: 'is_active', value: true }] },
          },
        ],
      },
      destination_node_types: { nodes: [{ node_type: 'OAA.wiki.space.Resource' }] },
      canonical_permissions: { values: ['DataRead', 'DataWrite'], operator: 'AND' },
    });
    expect(() => nodeQueryOf({ type: ['T'], to: ['D'], permission: ['Read'] })).toThrow(
      /not a canonical permission type/,
    );
  });
});

describe('oaa tags add arguments', () => {
  it('reads key=value and bare keys', () => {
    expect(parseTags(['owner=team_a', 'reviewed', 'note=a=b'])).toEqual([
      { key: 'owner', value: 'team_a' },
      { key: 'reviewed' },
      { key: 'note', value: 'a=b' },
    ]);
    expect(() => parseTags([])).toThrow('no tags given');
    expect(() => parseTags(['=v'])).toThrow('has no key');
  });
});
