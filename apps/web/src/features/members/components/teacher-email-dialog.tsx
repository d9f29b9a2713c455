import { Button, Group, List, Loader, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { MODAL_WIDTHS, teacherMessages, validateWelcomeEmail, WELCOME_EMAIL_DEFAULT_DAYS } from '@quire/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { errorMessageOf, notifyError } from '../../../lib/notify.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import type { TeacherEmailKind, TeacherEmailPreview } from '@quire/core';
import { teacherEmailPreviewQueryOptions } from '../api/get-teacher-email-preview.js';
import { useSendTeacherEmail } from '../api/send-teacher-email.js';
import type { Member } from '@quire/core';
import { groupBySchool } from '../model/by-school.js';

export interface TeacherEmailDialogProps {
  orgId: string;
  kind: TeacherEmailKind;
  recipients: Member[];
  onClose: () => void;
  /** Called once the server has accepted the e-mail. */
  onSent?: () => void;
}

type Step = 'details' | 'confirm' | 'sent';

const STEP_TITLES: Record<Step, string> = {
  details: 'Review message details',
  confirm: 'Confirm recipients and send',
  sent: 'Your message has been sent',
};

/** Designed text: the server refuses a past date with the same meaning. @internal */
export const PAST_DATE_TEXT = 'Please choose today or a later date';

/** YYYY-MM-DD of the local day `days` from now: the welcome e-mail's "create your account by" date. @internal */
export function daysFromNow(days: number, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const SHOWN_RECIPIENTS = 50;

/** The e-mail exactly as its first recipient receives it; each teacher's link is their own. */
function WholeEmail({ subject, firstRecipient, query }: { subject: string; firstRecipient: string; query: UseQueryResult<TeacherEmailPreview> }) {
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="email-whole-label" mah={280} style={{ overflowY: 'auto' }} tabIndex={0}>
      <Text id="email-whole-label" size="sm" fw={600} mb={4}>
        {`The email as ${firstRecipient} receives it`}
      </Text>
      <Text size="sm" mb="xs">
        {`Subject: ${subject}`}
      </Text>
      {query.isPending ? (
        <Group role="status" gap="xs">
          <Loader size="xs" aria-hidden />
          <Text size="sm">Composing the email…</Text>
        </Group>
      ) : query.isError ? (
        <Group gap="xs">
          <Text size="sm" c="red.9" role="alert">
            The email could not be shown.
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {query.data.plain}
        </Text>
      )}
    </Paper>
  );
}

/**
 * The welcome e-mail and the certification request (spec §4 "E-mail flow"): review the message
 * (fixed subject, required message), confirm the recipients, then the sent confirmation.
 */
export function TeacherEmailDialog({ orgId, kind, recipients, onClose, onSent }: TeacherEmailDialogProps) {
  const memberIds = recipients.map((m) => m.id);
  // On a district's list each school sends to its own teachers; the message is previewed as the first recipient's
  // school composes it.
  const groups = groupBySchool(recipients, orgId).map((g) => ({ orgId: g.orgId, memberIds: g.members.map((m) => m.id) }));
  const first = groups[0] ?? { orgId, memberIds };
  const preview = useQuery(teacherEmailPreviewQueryOptions(first.orgId, kind, first.memberIds));
  const [step, setStep] = useState<Step>('details');
  const [message, setMessage] = useState<string | null>(null);
  const [date, setDate] = useState(() => daysFromNow(WELCOME_EMAIL_DEFAULT_DAYS));
  const [errors, setErrors] = useState<{ subject: string | null; message: string | null; date?: string | null }>({ subject: null, message: null });
  const subject = preview.data?.subject ?? '';
  const text = message ?? preview.data?.defaultMessage ?? '';
  // The whole e-mail as it will be sent: composed by the server from the message and date.
  const draft = { message: text, date: kind === 'WELCOME' ? date : undefined };
  const whole = useQuery({ ...teacherEmailPreviewQueryOptions(first.orgId, kind, first.memberIds, draft), enabled: step === 'confirm' });
  // A certification request failing is not a welcome e-mail failing.
  const failedText = kind === 'CERTIFICATION' ? teacherMessages.certificationRequestFailed : teacherMessages.welcomeEmailFailed;

  useEffect(() => {
    if (preview.isError) notifyError(errorMessageOf(preview.error, failedText));
  }, [preview.isError, preview.error, failedText]);

  const once = useSubmitOnce();
  const send = useSendTeacherEmail(orgId, {
    onSuccess: (result) => {
      // e.g. students who were skipped: 'Some users selected have student accounts and weren't emailed'.
      for (const error of result.errors) notifyError(error);
      setStep('sent');
      onSent?.();
    },
    onError: () => notifyError(failedText),
  });

  const next = () => {
    const found = validateWelcomeEmail({ subject, message: text });
    // A deadline already gone can only mislead. ISO dates compare as text.
    const date_ = kind === 'WELCOME' && (!date || date < daysFromNow(0)) ? PAST_DATE_TEXT : null;
    setErrors({ ...found, date: date_ });
    if (!found.subject && !found.message && !date_) setStep('confirm');
  };

  return (
    <Dialog
      opened
      onClose={send.isPending ? () => undefined : onClose}
      title={STEP_TITLES[step]}
      size={MODAL_WIDTHS[5]}
      // Each step, and the message once loaded, takes focus: the button that led there is gone.
      focusKey={step === 'details' && preview.isPending ? 'loading' : step}
    >
      {step === 'details' ? (
        preview.isPending ? (
          <Group justify="center" py="lg" role="status">
            <Loader aria-label="Loading the message" />
          </Group>
        ) : (
          <Stack>
            {/* Fixed (spec §5): filled, without the editable fields' border, so it does not look like one to type in. */}
            <TextInput label="Subject" value={subject} readOnly variant="filled" error={errors.subject} />
            <Textarea
              label="Message"
              rows={8}
              value={text}
              error={errors.message}
              onChange={(event) => setMessage(event.currentTarget.value)}
              data-autofocus
            />
            {kind === 'WELCOME' ? (
              <TextInput
                type="date"
                label="Create account by"
                value={date}
                min={daysFromNow(0)}
                error={errors.date}
                onChange={(event) => setDate(event.currentTarget.value)}
              />
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={next} disabled={preview.isError}>
                Next
              </Button>
            </Group>
          </Stack>
        )
      ) : step === 'confirm' ? (
        <Stack>
          <Text id="email-recipients-label">
            {recipients.length === 1 ? 'This email will be sent to 1 teacher:' : `This email will be sent to ${recipients.length} teachers:`}
          </Text>
          <List size="sm" spacing={2} aria-labelledby="email-recipients-label" mah={240} style={{ overflowY: 'auto' }} tabIndex={0}>
            {recipients.slice(0, SHOWN_RECIPIENTS).map((m) => (
              <List.Item key={m.id}>{m.email}</List.Item>
            ))}
          </List>
          {recipients.length > SHOWN_RECIPIENTS ? (
            <Text size="xs" c="dimmed">
              and {recipients.length - SHOWN_RECIPIENTS} more
            </Text>
          ) : null}
          <WholeEmail subject={subject} firstRecipient={recipients[0]?.email ?? ''} query={whole} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('details')} disabled={send.isPending}>
              Back
            </Button>
            <Button onClick={() => void once.submit((key) => send.mutateAsync({ kind, subject, message: text, memberIds, groups, date: kind === 'WELCOME' ? date : undefined, idempotencyKey: key })).catch(() => undefined)} loading={send.isPending || once.busy}>
              Send
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text>
            {send.data?.sentTo.length === 1 ? 'Sent to 1 teacher.' : `Sent to ${send.data?.sentTo.length ?? 0} teachers.`}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}
