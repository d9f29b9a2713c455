import { Button, Group, Stack, Text } from '@mantine/core';

export type LicenseOutcome = 'kept' | 'revoked';

export interface ManageLicenseStepProps {
  name: string;
  /** The libraries were archived rather than given to someone. */
  archived: boolean;
  busy: boolean;
  outcome: LicenseOutcome | null;
  onKeep: () => void;
  onRevoke: () => void;
  onClose: () => void;
}

/** 'Manage License' after a transfer (spec §4): keep the licence, or revoke it (downgrade to the free plan). */
export function ManageLicenseStep({ name, archived, busy, outcome, onKeep, onRevoke, onClose }: ManageLicenseStepProps) {
  if (outcome) {
    return (
      <Stack>
        <Text size="sm" role="status">
          {outcome === 'revoked' ? `${name}’s account has been downgraded to the free plan.` : `${name}’s license stays active.`}
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack>
      <Text size="sm">
        {name}’s libraries have been {archived ? 'archived' : 'transferred'}. Do you want {name} to keep their premium license, or revoke it and move their account to
        the free plan?
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onKeep} disabled={busy}>
          Keep License
        </Button>
        <Button color="red" onClick={onRevoke} loading={busy}>
          Revoke premium license
        </Button>
      </Group>
    </Stack>
  );
}
