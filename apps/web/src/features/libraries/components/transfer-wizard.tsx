import { Alert, Button, Center, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { libraryMessages, MODAL_WIDTHS, teacherMessages, withServerMessages } from '@quire/core';
import { useEffect, useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { notifyError, notifyInfo } from '../../../lib/notify.js';
import { useLibraryAccess } from '../hooks/use-library-access.js';
import { useStepFocus } from '../hooks/use-step-focus.js';
import { useTransferRun, type RemovalOutcome } from '../hooks/use-transfer-run.js';
import { useRevokeMembership } from '../api/revoke-membership.js';
import { revokeErrorText } from '../model/library-errors.js';
import { possessive, removedText, targetRequiredText, transferDoneText, type TargetOption, type TransferChoice } from '../model/transfer-choices.js';
import { teacherName, type TeacherRef } from '../model/teacher-ref.js';
import { DeleteConfirmStep, DeleteWarningStep } from './delete-account-steps.js';
import { ManageLicenseStep, type LicenseOutcome } from './manage-license-step.js';
import { TransferChoiceStep } from './transfer-choice-step.js';
import { TransferTargetStep } from './transfer-target-step.js';
import { useLibraryOrganisation } from '../model/library-organisation.js';

type Step = 'checking' | 'blocked' | 'pending' | 'choose' | 'target' | 'warning' | 'confirm' | 'transferring' | 'deleting' | 'done' | 'license';

export interface TransferWizardProps {
  /** One teacher for the wizard; one or more for the delete dialog. */
  teachers: TeacherRef[];
  /** 'manage': Manage Teacher Libraries; 'delete': the teacher delete dialog, ending with Delete account. */
  mode: 'manage' | 'delete';
  onClose: () => void;
  /** Something changed: the caller reloads its lists. */
  onDone?: (removedIds?: string[]) => void;
}

/** Designed: the spec gives no text for a missing choice. @internal */
export const CHOICE_REQUIRED_TEXT = 'Please choose what happens to the libraries';

/** The archive choice's second step: nobody receives the libraries. */
const ARCHIVE_HEADING = 'Archive and close libraries';

const STEP_HEADINGS: Record<Step, string> = {
  checking: 'Checking the account',
  blocked: 'This account cannot be deleted',
  pending: 'Remove teachers who have not signed up',
  choose: 'Choose an action',
  target: 'Choose who receives the libraries',
  warning: 'Delete account',
  confirm: 'Delete account',
  transferring: libraryMessages.transferInProgress,
  deleting: 'Deleting account',
  done: 'What happened',
  license: 'Manage License',
};

/**
 * The Manage Teacher Libraries wizard and the teacher delete dialog (spec §2, §4): choose an action,
 * pick the target, transfer, then Manage License (wizard) or Delete account (delete dialog). In the
 * delete dialog nothing changes until 'Permanently delete', so cancelling part-way leaves all as it was.
 */
export function TransferWizard({ teachers: requested, mode, onClose, onDone }: TransferWizardProps) {
  const organisation = useLibraryOrganisation();
  const orgId = organisation.id;
  const { access } = useLibraryAccess(orgId);
  const organisationName = access?.organisationName ?? organisation.name;
  const run = useTransferRun(orgId, organisationName);
  const revokeMembership = useRevokeMembership(orgId);
  const [step, setStep] = useState<Step>(mode === 'delete' ? 'checking' : 'choose');
  const [choice, setChoice] = useState<TransferChoice | null>(null);
  const [target, setTarget] = useState<TargetOption | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [licenseOutcome, setLicenseOutcome] = useState<LicenseOutcome | null>(null);
  // The delete dialog goes on with the teachers who may be deleted and names the others.
  const [teachers, setTeachers] = useState<TeacherRef[]>(requested);
  const [refused, setRefused] = useState<Array<{ teacher: TeacherRef; reasons: string[] }>>([]);
  const [outcomes, setOutcomes] = useState<RemovalOutcome[]>([]);
  const headingRef = useStepFocus<HTMLHeadingElement>(step);
  const single = teachers[0];
  const subject = teachers.length === 1 && single ? teacherName(single) : `${teachers.length} teachers`;
  const working = step === 'checking' || step === 'transferring' || step === 'deleting' || busy;

  // The delete dialog first asks whether the accounts may go at all.
  useEffect(() => {
    if (mode !== 'delete') return;
    let live = true;
    void run.check(requested).then((result) => {
      if (!live) return;
      if (result.allowed.length === 0) {
        const message = result.message ?? '';
        setFailure(message);
        notifyError(message);
        setStep('blocked');
        return;
      }
      setTeachers(result.allowed);
      setRefused(result.refused);
      setStep(result.allowed.every((t) => t.pending) ? 'pending' : 'choose');
    });
    return () => {
      live = false;
    };
    // Checked once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const next = () => {
    if (!choice) return setError(CHOICE_REQUIRED_TEXT);
    setError(null);
    setStep('target');
  };

  const transfer = async (): Promise<boolean> => {
    setStep('transferring');
    const result = await run.transfer(teachers, choice ?? 'archive', target);
    if (!result.ok) {
      setFailure(result.message);
      notifyError(result.message);
      setStep('target');
      return false;
    }
    setFailure(null);
    return true;
  };

  /** Assign / Continue. */
  const confirmTarget = async () => {
    if (choice !== 'archive' && !target) return setError(targetRequiredText[choice ?? 'teacher']);
    setError(null);
    if (mode === 'delete') return setStep('warning');
    if (!(await transfer())) return;
    onDone?.();
    // Manage License only when the teacher is not the acting admin and holds a licence.
    if (single && access && !access.isSelf(single) && single.license !== null) setStep('license');
    else {
      notifyInfo(transferDoneText(choice ?? 'archive'));
      onClose();
    }
  };

  /** The libraries' fate, sent with each removal so the server does both in one transaction. */
  const librariesOnArchive = () =>
    choice === 'teacher' && target
      ? { action: 'teacher' as const, newOwnerId: target.value }
      : choice === 'admin' && target
        ? { action: 'admin' as const, newOwnerId: target.value }
        : { action: 'archive' as const };

  /** Shows what happened to whom when anything was refused; otherwise a notice and the dialog closes. */
  const finish = (results: RemovalOutcome[]) => {
    const removedIds = results.filter((o) => o.removed).map((o) => o.teacher.id);
    if (removedIds.length) onDone?.(removedIds);
    if (results.every((o) => o.removed) && refused.length === 0) {
      notifyInfo(removedText(removedIds.length));
      onClose();
      return;
    }
    // Nothing changed at all: say why and stay where the admin can choose differently.
    if (removedIds.length === 0 && refused.length === 0) {
      const text = results.length === 1 ? (results[0]?.text ?? '') : withServerMessages(teacherMessages.deleteFailed, results.map((o) => `${o.teacher.email}: ${o.message}`));
      setFailure(text);
      notifyError(text);
      setStep('target');
      return;
    }
    if (results.some((o) => !o.removed)) notifyError(teacherMessages.deleteFailed);
    setOutcomes(results);
    setStep('done');
  };

  const permanentlyDelete = async () => {
    setStep('deleting');
    finish(await run.remove(teachers, librariesOnArchive()));
  };

  /** Pending teachers own nothing: one call removes them all. */
  const removePending = async () => {
    setBusy(true);
    try {
      const removed = new Set(await revokeMembership.mutateAsync({ memberIds: teachers.map((t) => t.id) }));
      setBusy(false);
      finish(teachers.map((t) => ({ teacher: t, removed: removed.has(t.id), message: removed.has(t.id) ? '' : teacherMessages.deleteFailed, text: '' })));
    } catch (error) {
      setBusy(false);
      notifyError(revokeErrorText(error));
    }
  };

  const revokeLicense = async () => {
    if (!single) return;
    setBusy(true);
    const result = await run.revoke(single);
    setBusy(false);
    if (result.ok) {
      setLicenseOutcome('revoked');
      onDone?.();
    } else notifyError(result.message);
  };

  const title = step === 'license' ? 'Manage License' : mode === 'manage' ? 'Manage Teacher Libraries' : 'Remove teacher';

  return (
    <Dialog opened onClose={working ? () => undefined : onClose} title={title} size={MODAL_WIDTHS[3]} closeButtonProps={{ disabled: working }}>
      <Stack>
        <Title
          order={3}
          size="h5"
          ref={headingRef}
          tabIndex={-1}
          style={{ outline: 'none' }}
          // The delete dialog first checks the accounts: it opens on its heading, not on Close.
          data-autofocus={step === 'checking' ? true : undefined}
        >
          {step === 'target' && choice === 'archive' ? ARCHIVE_HEADING : STEP_HEADINGS[step]}
        </Title>
        {failure && (step === 'target' || step === 'blocked') ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}

        {step === 'checking' || step === 'transferring' || step === 'deleting' ? (
          <Center py="lg" role="status" aria-live="polite">
            <Stack align="center" gap="xs">
              <Loader aria-hidden />
              <Text size="sm">{step === 'transferring' ? libraryMessages.transferInProgress : STEP_HEADINGS[step]}</Text>
            </Stack>
          </Center>
        ) : null}

        {refused.length > 0 && step !== 'done' ? (
          <Alert color="yellow" variant="light" title={`${refused.length === 1 ? '1 teacher' : `${refused.length} teachers`} cannot be removed`}>
            <List size="sm" aria-label="Teachers who cannot be removed">
              {refused.map(({ teacher, reasons }) => (
                <List.Item key={teacher.id}>{`${teacher.email}: ${reasons.join(' ')}`}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}

        {step === 'pending' ? (
          <>
            <Text size="sm">
              {teachers.length === 1 ? `${teachers[0]?.email ?? ''} has` : `These ${teachers.length} teachers have`} not signed up yet. Removing
              them moves them to Inactive and frees any license.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button color="red" onClick={() => void removePending()} loading={busy} data-autofocus>
                {`Remove ${teachers.length === 1 ? '1 teacher' : `${teachers.length} teachers`}`}
              </Button>
            </Group>
          </>
        ) : null}

        {step === 'done' ? (
          <>
            <List size="sm" aria-label="What happened">
              {[
                ...outcomes.map((o) => (o.removed ? `${o.teacher.email}: removed` : `${o.teacher.email}: not removed: ${o.message}`)),
                ...refused.map(({ teacher, reasons }) => `${teacher.email}: not removed: ${reasons.join(' ')}`),
              ].map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
            <Group justify="flex-end">
              <Button onClick={onClose} data-autofocus>
                Close
              </Button>
            </Group>
          </>
        ) : null}

        {step === 'blocked' ? (
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        ) : null}

        {step === 'choose' ? (
          <>
            <TransferChoiceStep value={choice} onChange={(c) => { setChoice(c); setTarget(null); setError(null); }} error={error} subject={subject} count={teachers.length} mode={mode} />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button onClick={next}>Next</Button>
            </Group>
          </>
        ) : null}

        {step === 'target' && choice ? (
          <>
            {choice === 'archive' ? (
              <Text size="sm">
                {`All of ${possessive(subject, teachers.length)} libraries are archived and closed. Published books stay active but become uneditable; nothing is deleted.`}
              </Text>
            ) : (
              <TransferTargetStep orgId={orgId} kind={choice} teachers={teachers} value={target} onChange={(t) => { setTarget(t); setError(null); }} error={error} />
            )}
            <Group justify="space-between">
              <Button variant="default" onClick={() => { setFailure(null); setStep('choose'); }}>
                Back
              </Button>
              <Button onClick={() => void confirmTarget()}>{choice === 'archive' ? 'Continue' : 'Assign'}</Button>
            </Group>
          </>
        ) : null}

        {step === 'warning' ? (
          <DeleteWarningStep
            names={teachers.map(teacherName)}
            organisationName={organisationName}
            target={choice === 'archive' ? null : (target?.label ?? null)}
            onCancel={onClose}
            onContinue={() => setStep('confirm')}
          />
        ) : null}
        {step === 'confirm' ? (
          <DeleteConfirmStep
            names={teachers.map(teacherName)}
            target={choice === 'archive' ? null : (target?.label ?? null)}
            busy={false}
            onCancel={onClose}
            onDelete={() => void permanentlyDelete()}
          />
        ) : null}

        {step === 'license' && single ? (
          <ManageLicenseStep
            name={teacherName(single)}
            archived={choice === 'archive'}
            busy={busy}
            outcome={licenseOutcome}
            onKeep={() => setLicenseOutcome('kept')}
            onRevoke={() => void revokeLicense()}
            onClose={onClose}
          />
        ) : null}
      </Stack>
    </Dialog>
  );
}
