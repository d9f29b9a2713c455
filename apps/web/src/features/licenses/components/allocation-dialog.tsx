import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { formatCount, MAX_ALLOCATION_SEATS, MODAL_WIDTHS, type LicenseAllocation } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';

export interface AllocationDialogProps {
  /** The district licence and the school whose allocation changes; null while closed. */
  target: { licenseName: string; allocation: LicenseAllocation; mostSeats: number } | null;
  /** The server's refusal, shown beside the field. */
  serverError: string | null;
  /** Saves the seats with the action's idempotency key; a second click while it runs does nothing. */
  onSave: (seats: number, idempotencyKey: string) => Promise<unknown>;
  onClose: () => void;
}

const WHOLE_NUMBER = 'Enter a whole number of seats, 0 or more';

/** 'Change allocation': the seats of a district licence a school may assign to its own teachers. */
export function AllocationDialog({ target, serverError, onSave, onClose }: AllocationDialogProps) {
  const opened = target !== null;
  return (
    <Dialog opened={opened} onClose={onClose} title="Change allocation" size={MODAL_WIDTHS[3]}>
      {target ? <AllocationForm key={`${target.allocation.organisationId}:${target.licenseName}`} target={target} serverError={serverError} onSave={onSave} onClose={onClose} /> : null}
    </Dialog>
  );
}

function AllocationForm({ target, serverError, onSave, onClose }: AllocationDialogProps & { target: NonNullable<AllocationDialogProps['target']> }) {
  const { allocation, licenseName, mostSeats } = target;
  const [value, setValue] = useState<string | number>(allocation.seats);
  const [error, setError] = useState<string | null>(null);
  const once = useSubmitOnce();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seats = typeof value === 'number' ? value : Number.NaN;
    if (!Number.isInteger(seats) || seats < 0 || seats > MAX_ALLOCATION_SEATS) {
      setError(WHOLE_NUMBER);
      return;
    }
    setError(null);
    // A refusal is shown beside the field by the page; the key is kept for a retry of the same action.
    void once.submit((key) => onSave(seats, key)).catch(() => undefined);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm">
          Seats of {licenseName} that {allocation.organisationName} may assign to its own teachers. It has assigned {formatCount(allocation.assigned)}.
        </Text>
        <NumberInput
          label={`Seats for ${allocation.organisationName}`}
          description={`From ${formatCount(allocation.assigned)} (already assigned) to ${formatCount(mostSeats)} (what the district has left, with this school's seats)`}
          withAsterisk
          value={value}
          onChange={(next) => {
            setValue(next);
            setError(null);
          }}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          hideControls
          inputMode="numeric"
          error={error ?? serverError ?? undefined}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={once.busy}>
            Cancel
          </Button>
          <Button type="submit" loading={once.busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
