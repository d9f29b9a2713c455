import { Checkbox, Group, Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';

type SortDirection = 'asc' | 'desc';

const sortName = (dir: SortDirection) => (dir === 'asc' ? 'ascending' : 'descending');

export interface SelectAllHeaderProps {
  /** What the rows are, in the plural: 'Select all {rows} on this page'. */
  rows: string;
  /** Rows on this page, and how many of them are selected. */
  total: number;
  selected: number;
  onChange?: (checked: boolean) => void;
}

/** The header cell that selects the page: ticked when every row is, indeterminate when only some are. */
export function SelectAllHeader({ rows, total, selected, onChange }: SelectAllHeaderProps) {
  return (
    <Table.Th scope="col" w={44}>
      <Checkbox
        aria-label={`Select all ${rows} on this page`}
        checked={total > 0 && selected === total}
        indeterminate={selected > 0 && selected < total}
        onChange={(event) => onChange?.(event.currentTarget.checked)}
      />
    </Table.Th>
  );
}

export interface SelectRowCellProps {
  /** What the row is, usually its e-mail: 'Select {name}'. */
  name: string;
  checked: boolean;
  onChange?: (checked: boolean) => void;
}

/** The cell with a row's selection checkbox. */
export function SelectRowCell({ name, checked, onChange }: SelectRowCellProps) {
  return (
    <Table.Td>
      <Checkbox aria-label={`Select ${name}`} checked={checked} onChange={(event) => onChange?.(event.currentTarget.checked)} />
    </Table.Td>
  );
}

export interface SortableHeaderProps {
  label: string;
  /** Whether the table is sorted by this column; an inactive column shows the neutral icon. */
  active: boolean;
  dir: SortDirection;
  onSort: () => void;
  /** E.g. a responsive table's class that drops the column when there is little room. */
  className?: string;
}

/** A column header that sorts on click and tells screen readers how the column is sorted. */
export function SortableHeader({ label, active, dir, onSort, className }: SortableHeaderProps) {
  const Icon = !active ? IconSelector : dir === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th scope="col" aria-sort={active ? sortName(dir) : 'none'} className={className}>
      <UnstyledButton onClick={onSort} fw={700} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
          <VisuallyHidden>{active ? `, sorted ${sortName(dir)}` : ', sort'}</VisuallyHidden>
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The header of the row-menu column: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <Table.Th scope="col" w={56}>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.Th>
  );
}

export interface ColumnHeadersProps {
  /** The columns' names, in order. */
  names: readonly string[];
  /** Mantine font size of the header text (a phone uses a smaller one). */
  fz?: string;
}

/** Plain column headers, one `th scope="col"` per name. */
export function ColumnHeaders({ names, fz }: ColumnHeadersProps) {
  return (
    <>
      {names.map((name) => (
        <Table.Th key={name} scope="col" fz={fz}>
          {name}
        </Table.Th>
      ))}
    </>
  );
}
