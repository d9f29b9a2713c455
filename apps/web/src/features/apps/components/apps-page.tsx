import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { appsMessages, settingsMessages, type AppCatalogueEntry, type AppPermission, type OrganisationSettingsPayload } from '@quire/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { settingsQueryKey, updateSettings, useIsAdmin, useSettings } from '../../../lib/settings/organisation-settings.js';
import { AppsTable } from './apps-table.js';
import { PrivacyDialog } from './privacy-dialog.js';

type Apps = OrganisationSettingsPayload['apps'];

/** Designed: what a library manager sees above the settings they may read but not change. */
const READ_ONLY_TEXT = 'Only the admins of this organisation can change these settings.';

function withApp(apps: Apps, id: string, value: AppPermission | null | undefined): Apps {
  const next: Record<string, AppPermission> = { ...apps };
  if (value === null || value === undefined) delete next[id];
  else next[id] = value;
  return next as Apps;
}

/** Manage Apps (spec §2, §4 "App permission per app"): which third-party apps teachers and students may use. */
export function AppsPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const queryClient = useQueryClient();
  const orgId = session.currentOrganisation?.id ?? '';
  const userId = session.user?.uid;
  const settings = useSettings(orgId, userId);
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const [privacyApp, setPrivacyApp] = useState<AppCatalogueEntry | null>(null);
  const privacyOpener = useRef<HTMLButtonElement | null>(null);
  const key = settingsQueryKey(orgId);
  const isAdmin = useIsAdmin(orgId, session.user?.email);

  useEffect(() => {
    if (settings.isError) notifyError(settingsMessages.loadFailed);
  }, [settings.isError]);

  const mark = (id: string, on: boolean) =>
    setSaving((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const change = useMutation({
    mutationFn: ({ app, value }: { app: AppCatalogueEntry; value: AppPermission | null; previous: AppPermission | undefined }) =>
      updateSettings(orgId, userId, { apps: { [app.id]: value } }),
    onMutate: async ({ app, value }) => {
      mark(app.id, true);
      await queryClient.cancelQueries({ queryKey: key });
      // Shown at once; only this app's value changes, so rows saved at the same time do not undo each other.
      queryClient.setQueryData<OrganisationSettingsPayload>(key, (old) => (old ? { ...old, apps: withApp(old.apps, app.id, value) } : old));
    },
    onSuccess: (saved, { app }) => {
      queryClient.setQueryData<OrganisationSettingsPayload>(key, (old) => (old ? { ...old, apps: withApp(old.apps, app.id, saved.apps[app.id as keyof Apps]) } : saved));
    },
    onError: (_error, { app, previous }) => {
      queryClient.setQueryData<OrganisationSettingsPayload>(key, (old) => (old ? { ...old, apps: withApp(old.apps, app.id, previous) } : old));
      notifyError(appsMessages.updateFailed(app.name));
    },
    onSettled: (_data, _error, { app }) => mark(app.id, false),
  });

  return (
    <>
      <PageTitle>Manage Apps</PageTitle>
      <Stack gap="md">
        <Text maw={650}>
          Choose which apps teachers and students may use in {productName}. A change applies at once. Open Details to see what each app receives
          and its age limits.
        </Text>
        {settings.isSuccess && !isAdmin ? (
          <Text size="sm" c="dimmed" maw={650}>
            {READ_ONLY_TEXT}
          </Text>
        ) : null}
        {settings.isPending ? (
          <Center py="xl" role="status" maw={650}>
            <Loader aria-label="Loading settings" />
          </Center>
        ) : settings.isError ? (
          <LoadError title={settingsMessages.loadFailed} onRetry={() => settings.refetch()} />
        ) : (
          <AppsTable
            apps={settings.data.apps}
            saving={saving}
            readOnly={!isAdmin}
            onChange={(app, value) => change.mutate({ app, value, previous: settings.data.apps[app.id as keyof Apps] })}
            onPrivacy={(app, opener) => {
              privacyOpener.current = opener;
              setPrivacyApp(app);
            }}
          />
        )}
        <Text size="sm" maw={650}>
          Image search (Google or moderated safe images only) is set on{' '}
          <Anchor component={Link} to={paths.org.imageSearch(orgId)}>
            Image Search Settings
          </Anchor>
          .
        </Text>
      </Stack>
      <PrivacyDialog
        app={privacyApp}
        onClose={() => {
          setPrivacyApp(null);
          // Focus goes back to the row's Details button.
          requestAnimationFrame(() => privacyOpener.current?.focus());
        }}
      />
    </>
  );
}
