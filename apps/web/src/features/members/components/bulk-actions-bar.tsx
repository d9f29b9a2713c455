import { Anchor, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { allSelectedText, isEmailAction, pageSelectedText, selectAllText, selectedText, type BulkAction, type BulkActionOption } from '../model/teacher-access.js';

export interface BulkActionsBarProps {
  /** Teachers the actions apply to: the count shown before Apply. */
  count: number;
  options: BulkActionOption[];
  onApply: (action: BulkAction) => void;
  onClear: () => void;
  /**
   * 'Select all n teachers': offered once every row of the page is ticked and more teachers match;
   * `all` once chosen.
   */
  selectAll?: { pageCount: number; total: number; all: boolean; onSelectAll: () => void };
  /** A line under the actions, e.g. why some are not offered for every matching teacher. */
  note?: string | null;
  /** Apply is at work (the matching teachers are loading). */
  busy?: boolean;
}

/** Shown while teachers are selected (spec §2): 'n teachers selected', Bulk Actions, Apply or Preview. */
export function BulkActionsBar({ count, options, onApply, onClear, selectAll, note, busy = false }: BulkActionsBarProps) {
  const [value, setValue] = useState<string | null>(null);
  const option = options.find((o) => o.value === value);
  const chosen = option && !option.disabled ? option.action : null;

  return (
    <Paper withBorder p="sm" mb="md" bg="var(--mantine-color-quire-0)" role="region" aria-label="Bulk actions">
      <Stack gap="xs">
        <Group gap="md" wrap="wrap">
          <Text fw={600} size="sm" aria-live="polite">
            {selectedText(count)}
          </Text>
          <Select
            aria-label="Bulk Actions"
            placeholder="Bulk Actions"
            data={options.map((o) => ({ value: o.value, label: o.label, disabled: o.disabled }))}
            value={chosen ? value : null}
            onChange={setValue}
            allowDeselect={false}
            w={280}
            comboboxProps={{ withinPortal: true }}
          />
          <Button
            disabled={!chosen}
            loading={busy}
            // The second click of a double click would land on the dialog it opened (and close it): ignored.
            onClick={(event) => event.detail < 2 && !busy && chosen && onApply(chosen)}
          >
            {isEmailAction(chosen) ? 'Preview' : 'Apply'}
          </Button>
          <Button variant="subtle" color="gray" onClick={onClear}>
            Clear selection
          </Button>
        </Group>
        {selectAll && (selectAll.all || selectAll.total > selectAll.pageCount) ? (
          <Text size="sm" aria-live="polite">
            {selectAll.all ? (
              allSelectedText(selectAll.total)
            ) : (
              <>
                {pageSelectedText(selectAll.pageCount)}{' '}
                <Anchor component="button" type="button" size="sm" fw={600} onClick={selectAll.onSelectAll}>
                  {selectAllText(selectAll.total)}
                </Anchor>
              </>
            )}
          </Text>
        ) : null}
        {note ? (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
