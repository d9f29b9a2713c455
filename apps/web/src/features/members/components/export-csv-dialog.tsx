import { Button, Group, Radio, Stack } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import type { ExportScope } from '../api/export-teachers.js';

export interface ExportCsvDialogProps {
  pageCount: number;
  total: number;
  busy: boolean;
  onExport: (scope: ExportScope) => void;
  onClose: () => void;
}

/** Export as CSV: the current page or every teacher (shown only when there are more rows than the page). */
export function ExportCsvDialog({ pageCount, total, busy, onExport, onClose }: ExportCsvDialogProps) {
  const [scope, setScope] = useState<ExportScope>('page');
  return (
    <Dialog opened onClose={busy ? () => undefined : onClose} title="Export as CSV" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Radio.Group label="Which teachers?" value={scope} onChange={(value) => setScope(value as ExportScope)}>
          <Stack gap="xs" mt="xs">
            <Radio value="page" label={`Current page (${pageCount})`} />
            <Radio value="all" label={`All teachers (${total})`} />
          </Stack>
        </Radio.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => onExport(scope)} loading={busy}>
            Export
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
