import { Button, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { MODAL_WIDTHS, VISIT_REASON_MAX, VISIT_REASON_OTHER, VISIT_REASONS, validateVisitReason, visitReasonText } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';

export interface VisitReasonDialogProps {
  libraryName: string;
  /** The join call is running. */
  busy: boolean;
  /** Called with the reason to send: a preset, or the trimmed free text of 'Other'. */
  onVisit: (reason: string) => void;
  onClose: () => void;
}

/**
 * The reason for a first visit (spec §5): one of six presets, or 'Other' with at most 65 characters of
 * free text. The reason is sent to the library's owner.
 */
export function VisitReasonDialog({ libraryName, busy, onVisit, onClose }: VisitReasonDialogProps) {
  const [choice, setChoice] = useState<string | null>(null);
  const [other, setOther] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const error = validateVisitReason(choice, other);
  const showError = submitted && error !== null;
  const isOther = choice === VISIT_REASON_OTHER;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (error || !choice) return;
    onVisit(visitReasonText(choice, other));
  };

  return (
    <Dialog opened onClose={busy ? () => undefined : onClose} title="Reason for visit" size={MODAL_WIDTHS[3]}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Why are you visiting “{libraryName}”? The library’s owner is told who visited and why.
          </Text>
          <Radio.Group
            label="Reason"
            withAsterisk
            value={choice}
            onChange={setChoice}
            error={showError && !isOther ? error : undefined}
          >
            <Stack gap="xs" mt="xs">
              {[...VISIT_REASONS, VISIT_REASON_OTHER].map((reason, index) => (
                <Radio key={reason} value={reason} label={reason} data-autofocus={index === 0 ? true : undefined} />
              ))}
            </Stack>
          </Radio.Group>
          {isOther ? (
            <TextInput
              label="Other reason"
              withAsterisk
              value={other}
              onChange={(event) => setOther(event.currentTarget.value)}
              maxLength={VISIT_REASON_MAX}
              description={`${other.trim().length}/${VISIT_REASON_MAX} characters`}
              error={showError ? error : undefined}
              autoFocus
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Visit library
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
