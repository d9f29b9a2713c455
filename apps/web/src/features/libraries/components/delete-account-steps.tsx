import { Alert, Button, Checkbox, Group, List, Stack, Text } from '@mantine/core';
import { libraryMessages } from '@quire/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';

export interface DeleteWarningStepProps {
  names: string[];
  organisationName: string;
  /** Who receives the libraries (as the target is labelled), or null when they are archived. */
  target: string | null;
  onCancel: () => void;
  onContinue: () => void;
}

/** What the delete dialog does, line by line: the teacher becomes inactive, the libraries go where chosen. */
function whatWillHappen({ names, organisationName, target }: Pick<DeleteWarningStepProps, 'names' | 'organisationName' | 'target'>): string[] {
  const organisation = organisationName || 'the organisation';
  return [
    `${names.length === 1 ? `${names[0]} is` : `These ${names.length} teachers are`} removed from ${organisation}: they lose access to its libraries and their license is freed. They are listed under Inactive with the date they were removed.`,
    target ? `Their libraries now belong to ${target}.` : 'Their libraries are archived and closed: published books stay active but become uneditable.',
    names.length === 1 ? 'My Books is archived with the account: it is private and never handed over.' : 'Each teacher’s My Books is archived with their account: it is private and never handed over.',
  ];
}

/** Delete account, first step: what deleting does (spec §4), in so many words. */
export function DeleteWarningStep({ names, organisationName, target, onCancel, onContinue }: DeleteWarningStepProps) {
  return (
    <Stack>
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="What will happen">
        <List size="sm" spacing={4} aria-label="What will happen">
          {whatWillHappen({ names, organisationName, target }).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </Alert>
      {names.length > 1 ? (
        <List size="sm" aria-label="Teachers to delete">
          {names.map((name) => (
            <List.Item key={name}>{name}</List.Item>
          ))}
        </List>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={onContinue} data-autofocus>
          Continue
        </Button>
      </Group>
    </Stack>
  );
}

export interface DeleteConfirmStepProps {
  names: string[];
  /** Who receives the libraries, or null when they are archived. */
  target: string | null;
  busy: boolean;
  onCancel: () => void;
  onDelete: () => void;
}

/**
 * Delete account, second step: what cannot be undone, then the spec's checkbox, which must be ticked
 * before 'Permanently delete'. Marking the teacher as active again gives back access, not the libraries.
 */
export function DeleteConfirmStep({ names, target, busy, onCancel, onDelete }: DeleteConfirmStepProps) {
  const [understood, setUnderstood] = useState(false);
  const who = names.length === 1 ? `${names[0]} is` : 'they are';
  const libraries = target ? `the libraries stay with ${target}` : 'the libraries stay archived';
  return (
    <Stack>
      <Text size="sm">{`Deleting the ${names.length === 1 ? 'account' : 'accounts'} cannot be undone: ${libraries}, even if ${who} marked as active again.`}</Text>
      <Checkbox
        label={libraryMessages.deleteConfirmation}
        checked={understood}
        onChange={(event) => setUnderstood(event.currentTarget.checked)}
        disabled={busy}
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button color="red" onClick={onDelete} disabled={!understood} loading={busy}>
          Permanently delete
        </Button>
      </Group>
    </Stack>
  );
}
