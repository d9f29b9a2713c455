import { Alert, Button, Group, List, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { RosterError, RosterImport, RosterPreviewRow } from '@quire/core';
import { forwardRef } from 'react';
import { EmailText, TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { isRunning } from '../api/roster-imports.js';
import { countsText, DownloadErrors } from './roster-text.js';

const CHANGE_TEXT: Record<string, string> = {
  email: 'e-mail',
  name: 'name',
  role: 'role',
  organisation: 'school',
  restored: 'brought back',
  linked: 'linked to a teacher added by hand',
};

function PeopleTable({ label, rows, withChanges }: { label: string; rows: RosterPreviewRow[]; withChanges?: boolean }) {
  const { ref, narrow } = useTableRoom();
  return (
    <TableFrame ref={ref}>
      <Table aria-label={label} verticalSpacing="xs" horizontalSpacing={narrow ? 6 : 'xs'}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            {narrow ? null : <Table.Th scope="col">E-mail</Table.Th>}
            {narrow ? null : <Table.Th scope="col">Role</Table.Th>}
            <Table.Th scope="col">School</Table.Th>
            {withChanges ? <Table.Th scope="col">Changes</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.sourcedId}>
              <Table.Td>
                <Text size="sm">{row.name}</Text>
                {narrow ? <EmailText email={row.email} /> : null}
                {narrow ? <Text size="xs">{row.role}</Text> : null}
              </Table.Td>
              {narrow ? null : (
                <Table.Td>
                  <EmailText email={row.email} />
                </Table.Td>
              )}
              {narrow ? null : <Table.Td>{row.role}</Table.Td>}
              <Table.Td>{row.organisation}</Table.Td>
              {withChanges ? <Table.Td>{row.changes.map((c) => CHANGE_TEXT[c] ?? c).join(', ')}</Table.Td> : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableFrame>
  );
}

function ErrorsTable({ rows }: { rows: RosterError[] }) {
  const { ref, narrow } = useTableRoom();
  const where = (e: RosterError) => [e.file, e.line === null ? null : `line ${e.line}`, e.column].filter(Boolean).join(', ');
  return (
    <TableFrame ref={ref}>
      <Table aria-label="Errors in the file" verticalSpacing="xs" horizontalSpacing={narrow ? 6 : 'xs'}>
        <Table.Thead>
          <Table.Tr>
            {narrow ? null : <Table.Th scope="col">Where</Table.Th>}
            <Table.Th scope="col">Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((error, index) => (
            <Table.Tr key={`${error.file}-${error.line ?? ''}-${index}`}>
              {narrow ? null : <Table.Td>{where(error)}</Table.Td>}
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {error.reason}
                {narrow ? <Text size="xs">{where(error)}</Text> : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableFrame>
  );
}

/** One list of the preview: its first rows, and how many there are in all. */
function PreviewList({ title, total, children }: { title: string; total: number; children: React.ReactNode }) {
  if (total === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={4} size="h5">
        {title} ({total})
      </Title>
      {children}
    </Stack>
  );
}

interface ImportPanelProps {
  orgId: string;
  item: RosterImport;
  busy: boolean;
  onApply: () => void;
  onCancel: () => void;
  onPreviewAgain: () => void;
  onDone: () => void;
}

/** The current import: its preview with Confirm and Cancel, then the job's progress, then its outcome. */
export const ImportPanel = forwardRef<HTMLHeadingElement, ImportPanelProps>(function ImportPanel({ orgId, item, busy, onApply, onCancel, onPreviewAgain, onDone }, headingRef) {
  const { counts, preview } = item;
  const unmatched = item.orgs.filter((org) => org.organisationId === null);
  const heading = (text: string) => (
    <Title order={2} size="h3" id="roster-current-title" ref={headingRef} tabIndex={-1}>
      {text}
    </Title>
  );

  if (isRunning(item.status)) {
    const { done, total } = item.progress;
    const percent = total > 0 ? Math.round((done / total) * 100) : 0;
    return (
      <Stack gap="sm" component="section" aria-labelledby="roster-current-title">
        {heading(`Applying ${item.fileName}`)}
        <Text role="status">
          {item.status === 'queued' ? 'Waiting to start…' : `${done} of ${total} rows done`}
        </Text>
        <Progress value={percent} aria-label="Rows done" maw={480} />
        <Text size="sm">You can leave this page: the import carries on, and its progress is here when you come back.</Text>
      </Stack>
    );
  }

  if (item.status !== 'preview') {
    const applied = item.status === 'applied';
    return (
      <Stack gap="sm" component="section" aria-labelledby="roster-current-title">
        {heading(applied ? `Applied ${item.fileName}` : item.status === 'failed' ? `${item.fileName} failed` : `Cancelled ${item.fileName}`)}
        <Alert color={applied ? 'green' : item.status === 'failed' ? 'red' : 'gray'} role="status">
          {applied
            ? `Import applied: ${countsText(item)}.`
            : item.status === 'failed'
              ? 'The import stopped before it was done. What was applied stays; upload the file again to finish it.'
              : 'The import was cancelled. Nothing was changed.'}
        </Alert>
        <Group>
          {counts.errors > 0 ? <DownloadErrors orgId={orgId} item={item} /> : null}
          <Button variant="default" onClick={onDone}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  const summary: [string, number][] = [
    ['To add', counts.add],
    ['To update', counts.update],
    ['To retire', counts.retire],
    ['Unchanged', counts.unchanged],
    ['Errors', counts.errors],
    ['Students (counted, not imported)', counts.students],
    ['Others skipped', counts.skipped],
  ];
  const blocked = item.options.allOrNothing && counts.errors > 0;
  return (
    <Stack gap="sm" component="section" aria-labelledby="roster-current-title">
      {heading(`Preview of ${item.fileName}`)}
      <Text size="sm">
        OneRoster {item.version}, {item.mode === 'bulk' ? 'a full import: people an earlier import added who are not in it are retired' : 'a delta: only the changes it lists'}.
        Nothing has changed yet.
      </Text>
      <Table aria-label="Preview counts" maw={420} verticalSpacing={4}>
        <Table.Tbody>
          {summary.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500}>
                {label}
              </Table.Th>
              <Table.Td ta="right">{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {unmatched.length > 0 ? (
        // The title in the text colour: the yellow alert's own title colour is 2.7:1 on its background.
        <Alert color="yellow" title="OneRoster orgs not matched" role="note" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          <Text size="sm">The people of these orgs are errors until their ids are set above; then work the preview out again.</Text>
          <List size="sm" mt={4}>
            {unmatched.map((org) => (
              <List.Item key={org.sourcedId}>
                {org.name} ({org.type}, {org.sourcedId})
              </List.Item>
            ))}
          </List>
          <Button mt="xs" size="xs" variant="default" onClick={onPreviewAgain} disabled={busy}>
            Preview again
          </Button>
        </Alert>
      ) : null}
      <PreviewList title="To add" total={counts.add}>
        <PeopleTable label="People to add" rows={preview.add} />
      </PreviewList>
      <PreviewList title="To update" total={counts.update}>
        <PeopleTable label="People to update" rows={preview.update} withChanges />
      </PreviewList>
      <PreviewList title="To retire" total={counts.retire}>
        <PeopleTable label="People to retire" rows={preview.retire} />
      </PreviewList>
      <PreviewList title="Errors" total={counts.errors}>
        <ErrorsTable rows={preview.errors} />
        <Group>
          <DownloadErrors orgId={orgId} item={item} />
        </Group>
      </PreviewList>
      {blocked ? (
        <Alert color="red" role="note">
          All or nothing was chosen and the file has errors: fix them in your student information system and upload it again.
        </Alert>
      ) : null}
      <Group>
        <Button onClick={onApply} loading={busy} disabled={blocked}>
          Confirm and apply
        </Button>
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel import
        </Button>
      </Group>
    </Stack>
  );
});
