import { Button, Code, Group, Stack, Table, Text } from '@mantine/core';
import { auditActorKindLabels, type AuditEvent } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';
import { actorText } from './audit-text.js';

export interface AuditEntryDialogProps {
  entry: AuditEvent | null;
  district: boolean;
  onClose: () => void;
}

/** One entry in full: everything the log kept (focus goes back to the row's action when it closes). */
export function AuditEntryDialog({ entry, district, onClose }: AuditEntryDialogProps) {
  const rows: Array<[string, string]> = entry
    ? [
        ['Time (UTC)', entry.time],
        ...(district ? ([['School', entry.organisationName]] as Array<[string, string]>) : []),
        ['Actor', actorText(entry)],
        ['Actor type', auditActorKindLabels[entry.actor.kind]],
        ['Action', `${entry.actionText} (${entry.action})`],
        ['Target', entry.targetText || '—'],
        ['Number of targets', String(entry.targetCount)],
        ['Old → new', entry.changeText || '—'],
        ['Outcome', entry.outcome === 'refused' ? `Refused${entry.errorCode ? ` (${entry.errorCode})` : ''}` : 'Success'],
        ['IP', entry.ip ?? '—'],
        ['User agent', entry.userAgent ?? '—'],
        ['Entry id', entry.id],
      ]
    : [];
  const details = entry && Object.keys(entry.details).length ? JSON.stringify(entry.details, null, 2) : null;
  return (
    <Dialog opened={entry !== null} onClose={onClose} title="Audit entry" size="lg">
      {entry ? (
        <Stack gap="sm">
          <Table aria-label="Entry details" layout="fixed">
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w="35%" scope="row">
                    {label}
                  </Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {entry.targetIds.length > 0 ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Target ids: {entry.targetIds.join(', ')}
            </Text>
          ) : null}
          {details ? (
            <Code block aria-label="More details">
              {details}
            </Code>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Dialog>
  );
}
