import { Button } from '@mantine/core';
import type { RosterImportSummary } from '@quire/core';
import { useState } from 'react';
import { userFacingMessage } from '../../../lib/api/index.js';
import { notifyError } from '../../../lib/notify.js';
import { saveFile } from '../../../lib/save-file.js';
import { fetchRosterErrorsCsv } from '../api/roster-imports.js';

/** An import's outcome in a phrase: '5 added, 1 updated, 0 retired, 2 errors'. */
export function countsText({ counts }: Pick<RosterImportSummary, 'counts'>): string {
  return `${counts.add} added, ${counts.update} updated, ${counts.retire} retired, ${counts.errors} ${counts.errors === 1 ? 'error' : 'errors'}`;
}

/** Saves the import's errors as CSV (file, line, column, reason). */
export function DownloadErrors({ orgId, item }: { orgId: string; item: RosterImportSummary }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveFile(await fetchRosterErrorsCsv(orgId, item.id), `${item.fileName.replace(/\.zip$/i, '')}-errors.csv`);
    } catch (error) {
      notifyError(userFacingMessage(error) ?? 'The errors could not be downloaded');
    } finally {
      setBusy(false);
    }
  };
  return (
    // The name starts with the visible text (speech users say what they see), then names the file: a page may list several.
    <Button size="xs" variant="light" loading={busy} aria-label={`Download errors (CSV) of ${item.fileName}`} onClick={() => void download()}>
      Download errors (CSV)
    </Button>
  );
}
