import { Alert, Button, Checkbox, Group, List, Stack, Text } from '@mantine/core';
import { libraryMessages } from '@quire/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';

export interface DeleteWarningStepProps {
  names: string[];
  organisationName: string;
  onCancel: () => void;
  onContinue: () => void;
}

/** Delete account, first step: what deleting means (spec §4). */
export function DeleteWarningStep({ names, organisationName, onCancel, onContinue }: DeleteWarningStepProps) {
  return (
    <Stack>
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Delete account">
        <Text size="sm">
          {names.length === 1 ? `${names[0]} is` : `These ${names.length} teachers are`} removed from {organisationName || 'the organisation'}: they
          lose access to its libraries and their license is freed. They are listed under Inactive with the date they were removed.
        </Text>
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
  busy: boolean;
  onCancel: () => void;
  onDelete: () => void;
}

/** Delete account, second step: the checkbox must be ticked before 'Permanently delete'. */
export function DeleteConfirmStep({ busy, onCancel, onDelete }: DeleteConfirmStepProps) {
  const [understood, setUnderstood] = useState(false);
  return (
    <Stack>
      <Text size="sm">This cannot be undone.</Text>
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
