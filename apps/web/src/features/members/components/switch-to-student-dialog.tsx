import { Button, Group, Loader, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { DEFAULT_MY_BOOKS_LIBRARY_NAME, MODAL_WIDTHS } from '@quire/core';
import { IconCheck, IconClock, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { errorMessageOf } from '../../../lib/notify.js';
import { convertToStudent } from '../api/convert-to-student.js';
import type { Member } from '@quire/core';
import { schoolOf } from '../model/by-school.js';

type Mark = { state: 'waiting' } | { state: 'pending' } | { state: 'success' } | { state: 'failed'; message: string };

export interface SwitchToStudentDialogProps {
  orgId: string;
  members: Member[];
  onClose: () => void;
  /** Called after the run with the ids switched (they leave the list). */
  onFinished: (switchedIds: string[]) => void;
}

function MarkCell({ mark }: { mark: Mark }) {
  switch (mark.state) {
    case 'waiting':
      return (
        <Group gap={6} wrap="nowrap">
          <IconClock size={16} aria-hidden />
          <Text size="sm">Waiting</Text>
        </Group>
      );
    case 'pending':
      return (
        <Group gap={6} wrap="nowrap">
          <Loader size={14} aria-hidden />
          <Text size="sm">Switching…</Text>
        </Group>
      );
    case 'success':
      return (
        <Group gap={6} wrap="nowrap">
          <ThemeIcon size={18} radius="xl" color="quire" aria-hidden>
            <IconCheck size={12} />
          </ThemeIcon>
          <Text size="sm">Switched</Text>
        </Group>
      );
    case 'failed':
      return (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <ThemeIcon size={18} radius="xl" color="red" aria-hidden>
            <IconX size={12} />
          </ThemeIcon>
          <Text size="sm" c="red.9">
            {mark.message}
          </Text>
        </Group>
      );
  }
}

/**
 * Switch to student (spec §4 "Downgrade to student"): one teacher after another, each marked
 * pending, success or failed; a failure shows the server's message beside the e-mail.
 */
export function SwitchToStudentDialog({ orgId, members, onClose, onFinished }: SwitchToStudentDialogProps) {
  const [marks, setMarks] = useState<Record<string, Mark>>({});
  const [phase, setPhase] = useState<'confirm' | 'running' | 'done'>('confirm');
  const once = useSubmitOnce();

  // One action, one key; each teacher's request gets its own key derived from it (the server keeps keys per user).
  const run = async (key: string) => {
    setPhase('running');
    setMarks(Object.fromEntries(members.map((m) => [m.id, { state: 'waiting' } as Mark])));
    const switched: string[] = [];
    for (const member of members) {
      setMarks((old) => ({ ...old, [member.id]: { state: 'pending' } }));
      try {
        // The lists reload once, after the run (onFinished), not after each teacher.
        // In the teacher's own school on a district's list.
        await convertToStudent(schoolOf(member, orgId), member.id, `${key}:${member.id}`);
        switched.push(member.id);
        setMarks((old) => ({ ...old, [member.id]: { state: 'success' } }));
      } catch (error) {
        setMarks((old) => ({ ...old, [member.id]: { state: 'failed', message: errorMessageOf(error, 'The teacher could not be switched') } }));
      }
    }
    setPhase('done');
    onFinished(switched);
  };

  return (
    <Dialog opened onClose={phase === 'running' ? () => undefined : onClose} title="Switch to student" size={MODAL_WIDTHS[5]} focusKey={phase}>
      <Stack>
        <Text size="sm">
          {members.length === 1 ? 'This teacher becomes a student' : `These ${members.length} teachers become students`} of your
          organisation. Their license is freed and their own books move to a private library named “{DEFAULT_MY_BOOKS_LIBRARY_NAME}”.
        </Text>
        <Table.ScrollContainer minWidth={360} mah={300}>
          <Table aria-label="Teachers to switch to student">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Email</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody aria-live="polite">
              {members.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td>{marks[member.id] ? <MarkCell mark={marks[member.id] ?? { state: 'waiting' }} /> : null}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Group justify="flex-end">
          {phase === 'done' ? (
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          ) : (
            <>
              <Button variant="default" onClick={onClose} disabled={phase === 'running'}>
                Cancel
              </Button>
              <Button color="red" onClick={() => void once.submit(run)} loading={phase === 'running' || once.busy} data-autofocus>
                Switch to student
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Dialog>
  );
}
