import { describe, expect, it } from 'vitest';
import { organisationsUnder } from './organisations-under.js';

describe('organisationsUnder', () => {
  const tree = [
    { id: 'region', name: 'Region', parentId: null },
    { id: 'river', name: 'Riverside', parentId: 'region' },
    { id: 'willow', name: 'Willow Creek', parentId: 'river' },
    { id: 'oak', name: 'Oakwood', parentId: 'river' },
    { id: 'maple', name: 'Maple Grove', parentId: null },
  ];

  it('lists every organisation below, depth first and by name; none for a school', () => {
    expect(organisationsUnder(tree, 'river').map((o) => o.id)).toEqual(['oak', 'willow']);
    expect(organisationsUnder(tree, 'region').map((o) => o.id)).toEqual(['river', 'oak', 'willow']);
    expect(organisationsUnder(tree, 'maple')).toEqual([]);
  });

  it('stops on a cycle instead of looping', () => {
    expect(organisationsUnder([{ id: 'a', name: 'A', parentId: 'b' }, { id: 'b', name: 'B', parentId: 'a' }], 'a').map((o) => o.id)).toEqual(['b']);
  });
});
