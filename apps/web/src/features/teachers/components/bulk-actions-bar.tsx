import { Button, Group, Paper, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { isEmailAction, selectedText, type BulkAction, type BulkActionOption } from '../model/teacher-access.js';

export interface BulkActionsBarProps {
  count: number;
  options: BulkActionOption[];
  onApply: (action: BulkAction) => void;
  onClear: () => void;
}

/** Shown while teachers are selected (spec §2): 'n teachers selected', Bulk Actions, Apply or Preview. */
export function BulkActionsBar({ count, options, onApply, onClear }: BulkActionsBarProps) {
  const [value, setValue] = useState<string | null>(null);
  const chosen = options.find((o) => o.value === value)?.action ?? null;

  return (
    <Paper withBorder p="sm" mb="md" bg="var(--mantine-color-quire-0)" role="region" aria-label="Bulk actions">
      <Group gap="md" wrap="wrap">
        <Text fw={600} size="sm" aria-live="polite">
          {selectedText(count)}
        </Text>
        <Select
          aria-label="Bulk Actions"
          placeholder="Bulk Actions"
          data={options.map((o) => ({ value: o.value, label: o.label }))}
          value={value}
          onChange={setValue}
          allowDeselect={false}
          w={280}
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          disabled={!chosen}
          // The second click of a double click would land on the dialog it opened (and close it): ignored.
          onClick={(event) => event.detail < 2 && chosen && onApply(chosen)}
        >
          {isEmailAction(chosen) ? 'Preview' : 'Apply'}
        </Button>
        <Button variant="subtle" color="gray" onClick={onClear}>
          Clear selection
        </Button>
      </Group>
    </Paper>
  );
}
