import { Button, Group, List, Paper, Progress, Stack, Text, Textarea } from '@mantine/core';
import { available, canImport, invalidEmailsText, MODAL_WIDTHS, parseEmailList, readyToImportText, type ImportTeachersResult, type OrganisationLicense } from '@quire/core';
import { useMemo, useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { notifyError } from '../../../lib/notify.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { importErrorMessage, useImportTeachers } from '../api/import-teachers.js';
import { assignableLicenses } from '../model/teacher-access.js';
import { ImportLicensePicker } from './import-license-picker.js';

export interface ImportTeachersDialogProps {
  opened: boolean;
  orgId: string;
  licenses: OrganisationLicense[];
  onClose: () => void;
  onImported: (result: ImportTeachersResult) => void;
}

type Step = 'enter' | 'review';

/** Import Teachers (spec §4 "Import flow"): enter e-mails, review the validated list with licences, Import. */
export function ImportTeachersDialog({ opened, orgId, licenses, onClose, onImported }: ImportTeachersDialogProps) {
  const [step, setStep] = useState<Step>('enter');
  const [text, setText] = useState('');
  const [licenseId, setLicenseId] = useState<string | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const parsed = useMemo(() => parseEmailList(text), [text]);
  // Licence assignment is offered only while some licence has seats left (spec §5).
  const offered = assignableLicenses(licenses).filter((l) => available(l) > 0);
  const chosenLicenseId = licenseId ?? offered[0]?.id ?? null;

  const once = useSubmitOnce();
  /** E-mail → the chosen licence, for the ticked addresses. */
  const granted = () => {
    const licensesByEmail: Record<string, string> = {};
    if (chosenLicenseId) for (const email of parsed.valid) if (ticked.has(email)) licensesByEmail[email] = chosenLicenseId;
    return licensesByEmail;
  };
  const run = useImportTeachers(orgId, {
    onSuccess: (result) => {
      reset();
      onImported(result);
    },
    onError: (error) => notifyError(importErrorMessage(error)),
  });

  const reset = () => {
    setStep('enter');
    setText('');
    setTicked(new Set());
    setLicenseId(null);
  };
  const close = () => {
    if (run.isPending) return;
    reset();
    onClose();
  };

  return (
    <Dialog opened={opened} onClose={close} title="Import Teachers" size={MODAL_WIDTHS[6]} focusKey={step}>
      {step === 'enter' ? (
        <Stack>
          <Textarea
            label="Teacher email addresses"
            description="Separate addresses with commas, semicolons or new lines."
            rows={8}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button disabled={parsed.valid.length + parsed.invalid.length === 0} onClick={() => setStep('review')}>
              Next
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <div role="status">
            <Text fw={600}>{readyToImportText(parsed.valid.length)}</Text>
            {parsed.invalid.length > 0 ? (
              <Text c="red.9" fw={600}>
                {invalidEmailsText(parsed.invalid.length)}
              </Text>
            ) : null}
          </div>
          {parsed.invalid.length > 0 ? (
            <Paper withBorder p="sm">
              <Text size="sm" fw={600} id="import-invalid-label">
                Correct these addresses to import:
              </Text>
              <List size="sm" spacing={2} c="red.9" aria-labelledby="import-invalid-label">
                {parsed.invalid.slice(0, 50).map((entry) => (
                  <List.Item key={entry}>{entry}</List.Item>
                ))}
              </List>
            </Paper>
          ) : null}
          {offered.length > 0 && parsed.valid.length > 0 ? (
            <ImportLicensePicker
              emails={parsed.valid}
              licenses={offered}
              licenseId={chosenLicenseId}
              onLicenseChange={(id) => {
                setLicenseId(id);
                setTicked(new Set());
              }}
              ticked={ticked}
              onTickedChange={setTicked}
            />
          ) : null}
          {run.isPending ? (
            <Stack gap={4}>
              <Text size="sm" id="import-progress-label">
                Importing {parsed.valid.length} {parsed.valid.length === 1 ? 'teacher' : 'teachers'}…
              </Text>
              <Progress value={100} animated striped aria-labelledby="import-progress-label" />
            </Stack>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setStep('enter')} disabled={run.isPending}>
              Back
            </Button>
            <Button
              disabled={!canImport(parsed)}
              loading={run.isPending || once.busy}
              onClick={() => void once.submit((key) => run.mutateAsync({ emails: parsed.valid, licenses: granted(), idempotencyKey: key })).catch(() => undefined)}
              // Nothing to choose: the review opens on Import (a licence choice, when offered, comes first).
              data-autofocus={canImport(parsed) && !(offered.length > 0 && parsed.valid.length > 0) ? true : undefined}
            >
              Import
            </Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}
