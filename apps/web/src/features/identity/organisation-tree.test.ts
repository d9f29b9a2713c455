import { describe, expect, it } from 'vitest';
import { pickerData } from './organisation-tree.js';

describe('pickerData', () => {
  it('groups each district with its schools, keeps stand-alone schools on their own, by name', () => {
    expect(
      pickerData([
        { id: 's2', name: 'South School', parentId: 'd1' },
        { id: 'alone', name: 'Alder School', parentId: null },
        { id: 'd1', name: 'Maple District', parentId: null },
        { id: 's1', name: 'North School', parentId: 'd1' },
        { id: 'x', name: 'Annex', parentId: 's1' },
      ]),
    ).toEqual([
      { value: 'alone', label: 'Alder School' },
      {
        group: 'Maple District',
        items: [
          { value: 'd1', label: 'Maple District (district)' },
          { value: 's1', label: 'North School' },
          { value: 'x', label: '– Annex' },
          { value: 's2', label: 'South School' },
        ],
      },
    ]);
  });

  it('shows a school whose district the actor cannot open on its own, and survives a malformed tree', () => {
    expect(pickerData([{ id: 's1', name: 'North School', parentId: 'hidden-district' }])).toEqual([{ value: 's1', label: 'North School' }]);
    expect(pickerData([{ id: 'a', name: 'A', parentId: 'a' }, { id: 'b', name: 'B' }])).toEqual([{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }]);
  });
});
