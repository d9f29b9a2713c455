import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { MODAL_WIDTHS } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { checkAdminEmails } from '../model/admin-emails.js';

export interface AddAdminsDialogProps {
  opened: boolean;
  productName: string;
  providerEmailDomain: string;
  districtSsoDomains: readonly string[];
  busy: boolean;
  /** The server's refusal of the addresses, shown beside the field. */
  serverError: string | null;
  /** Adds the addresses with the action's idempotency key; a second click while it runs does nothing. */
  onAdd: (emails: string[], idempotencyKey: string) => Promise<unknown>;
  onClose: () => void;
}

/** 'Add admins': one or more e-mail addresses, checked before anything is sent. */
export function AddAdminsDialog({ opened, productName, providerEmailDomain, districtSsoDomains, busy, serverError, onAdd, onClose }: AddAdminsDialogProps) {
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const once = useSubmitOnce();
  const check = checkAdminEmails(text, { productName, providerEmailDomain, districtSsoDomains });
  const error = (submitted ? check.error : null) ?? serverError;

  const close = () => {
    setText('');
    setSubmitted(false);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (check.error) return;
    // A failure is shown by the page (banner and field); the key is kept for a retry of the same action.
    void once.submit((key) => onAdd(check.emails, key)).catch(() => undefined);
  };

  return (
    <Dialog opened={opened} onClose={busy || once.busy ? () => undefined : close} title="Add admins" size={MODAL_WIDTHS[3]}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Admins can manage licenses, teachers, other admins and settings of this organisation.</Text>
          <Textarea
            label="Email addresses"
            description="One or more addresses, separated by commas, semicolons or new lines"
            withAsterisk
            rows={4}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={error ?? undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy || once.busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy || once.busy}>
              Add admins
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
