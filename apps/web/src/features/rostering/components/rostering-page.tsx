import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { hasErrorCode, userFacingMessage } from '../../../lib/api/index.js';
import { notifyError } from '../../../lib/notify.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { useSession } from '../../../lib/session/index.js';
import { isRunning, useRosterHistory, useRosterImport, useRosterImportAction } from '../api/roster-imports.js';
import { useRosterOrgs } from '../api/roster-orgs.js';
import { ImportHistory } from './import-history.js';
import { ImportPanel } from './import-panel.js';
import { OrgMatching } from './org-matching.js';
import { UploadForm } from './upload-form.js';

/** What a library manager (who may open the console, not its rostering) sees. @internal */
export const ROSTERING_ADMINS_ONLY_TEXT = 'Only the admins of this organisation can import a roster.';

/**
 * Rostering (docs/rostering.md): the OneRoster ids of the organisation and its schools, the mapping choices and the
 * upload, the preview to confirm or cancel, the apply job's progress, and the history of imports.
 */
export function RosteringPage() {
  const session = useSession();
  const orgId = session.currentOrganisation?.id ?? '';
  const orgs = useRosterOrgs(orgId);
  const adminsOnly = hasErrorCode(orgs.error, 'admin_required');
  const history = useRosterHistory(orgId);
  // The import on show: the one just uploaded, else one still waiting for a decision or running (the admin came back).
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const open = history.data?.imports.find((i) => i.status === 'preview' || isRunning(i.status))?.id ?? null;
  const currentId = chosen === undefined ? open : chosen;
  const current = useRosterImport(orgId, currentId);
  const currentHeading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const once = useSubmitOnce();

  // After an upload or an action, focus goes to the import's heading once that import is on screen.
  const [focusFor, setFocusFor] = useState<string | null>(null);
  const shown = current.data?.id;
  useEffect(() => {
    if (focusFor === null || shown !== focusFor || !currentHeading.current) return;
    currentHeading.current.focus();
    setFocusFor(null);
  }, [focusFor, shown]);
  const focusCurrent = (item: { id: string }) => setFocusFor(item.id);
  const failed = (fallback: string) => (error: Error) => notifyError(userFacingMessage(error) ?? fallback);
  const apply = useRosterImportAction(orgId, 'apply', { onSuccess: focusCurrent, onError: failed('The import could not be applied') });
  const cancel = useRosterImportAction(orgId, 'cancel', {
    onSuccess: () => {
      setChosen(null);
      fileInput.current?.focus();
    },
    onError: failed('The import could not be cancelled'),
  });
  const again = useRosterImportAction(orgId, 'preview', { onSuccess: focusCurrent, onError: failed('The preview could not be worked out again') });
  const act = (action: typeof apply, importId: string) => void once.submit((idempotencyKey) => action.mutateAsync({ importId, idempotencyKey })).catch(() => undefined);
  // Once the job is done, what it changed is stale everywhere: the history's counts, the teachers, the licences.
  const finished = current.data && !isRunning(current.data.status) && current.data.status !== 'preview' ? current.data.id : null;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (finished) void queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) });
  }, [finished, orgId, queryClient]);

  return (
    <>
      <PageTitle>Rostering</PageTitle>
      <Stack gap="lg" maw={960}>
        <Text>
          Import your staff from your student information system’s OneRoster export. You see what would change before anything does; running the same
          export again changes nothing, and people an import added who leave your export are retired (moved to Inactive, their books stay theirs). Teachers
          added by hand are never retired by an import.
        </Text>
        {orgs.isPending ? (
          <Center py="xl" role="status">
            <Loader aria-label="Loading rostering" />
          </Center>
        ) : adminsOnly ? (
          <Alert color="gray" variant="light">
            {ROSTERING_ADMINS_ONLY_TEXT}
          </Alert>
        ) : orgs.isError ? (
          <LoadError title="There was a problem loading rostering" onRetry={() => orgs.refetch()} />
        ) : (
          <>
            <OrgMatching orgId={orgId} setup={orgs.data} />
            <UploadForm
              ref={fileInput}
              orgId={orgId}
              onPreview={(preview) => {
                setChosen(preview.id);
                focusCurrent(preview);
              }}
            />
            {currentId === null ? null : current.isPending ? (
              <Loader size="sm" aria-label="Loading the import" />
            ) : current.isError ? (
              <LoadError title="There was a problem loading the import" onRetry={() => current.refetch()} />
            ) : (
              <ImportPanel
                ref={currentHeading}
                orgId={orgId}
                item={current.data}
                busy={once.busy}
                onApply={() => act(apply, current.data.id)}
                onCancel={() => act(cancel, current.data.id)}
                onPreviewAgain={() => act(again, current.data.id)}
                onDone={() => {
                  setChosen(null);
                  fileInput.current?.focus();
                }}
              />
            )}
            <Stack gap="sm" component="section" aria-labelledby="roster-history-title">
              <Title order={2} size="h3" id="roster-history-title">
                History
              </Title>
              {history.isPending ? (
                <Loader size="sm" aria-label="Loading the history" />
              ) : history.isError ? (
                <LoadError title="There was a problem loading the history" onRetry={() => history.refetch()} />
              ) : (
                <ImportHistory orgId={orgId} imports={history.data.imports} />
              )}
            </Stack>
          </>
        )}
      </Stack>
    </>
  );
}
