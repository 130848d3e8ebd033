import { describe, expect, it } from 'vitest';
import { renderFields, renderTable } from './table.js';

describe('renderTable', () => {
  it('pads columns to the widest cell, right-aligns numbers, shows empty cells as "-" and leaves no trailing spaces', () => {
    const rows = [
      { name: 'Wiki', count: 3, note: undefined },
      { name: 'HR Suite', count: 120, note: 'multi\nline' },
    ];
    const text = renderTable(
      [
        { header: 'NAME', get: (r: (typeof rows)[number]) => r.name },
        { header: 'N', get: (r) => r.count, right: true },
        { header: 'NOTE', get: (r) => r.note },
      ],
      rows,
    );
    expect(text.split('\n')).toEqual([
      'NAME        N  NOTE',
      'Wiki        3  -',
      'HR Suite  120  multi line',
    ]);
  });

  it('aligns the labels of a record', () => {
    expect(
      renderFields([
        ['id', 'p1'],
        ['custom_template', 'hris'],
        ['state', null],
      ]),
    ).toBe('id:              p1\ncustom_template: hris\nstate:           -');
  });
});
