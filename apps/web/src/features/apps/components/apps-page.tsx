import { Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import {
  APP_PERMISSION_EVERYONE,
  appsMessages,
  settingPolicyMessages,
  settingsMessages,
  type AppCatalogueEntry,
  type AppSettingValue,
  type SettingPoliciesUpdate,
  type SettingsUpdate,
} from '@quire/core';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { paths } from '../../../config/paths.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { useSettings } from '../../../lib/settings/get-settings.js';
import { ownValueFor, sourcesOf } from '../../../lib/settings/setting-sources.js';
import { useUpdateSettingPolicies } from '../../../lib/settings/update-setting-policies.js';
import { useUpdateSettings } from '../../../lib/settings/update-settings.js';
import { useLockedMeanwhile } from '../../../lib/settings/use-locked-meanwhile.js';
import { AppsTable } from './apps-table.js';
import { PrivacyDialog } from './privacy-dialog.js';

/** Designed: what a library manager sees above the settings they may read but not change. */
const READ_ONLY_TEXT = 'Only the admins of this organisation can change these settings.';

/** Designed: what a district's admin reads above the choices for its schools. */
const DISTRICT_TEXT =
  "Under each app, 'For schools' applies a permission to every school of this district: as a default each school may change, or locked with 'Lock for schools'. 'Let schools decide' leaves it to each school.";

/** Manage Apps (spec §2, §4 "App permission per app"): which third-party apps teachers and students may use. */
export function AppsPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const userId = session.user?.uid;
  const settings = useSettings(orgId, userId);
  // Saves in flight per app: a second change may be made while the first is saved.
  const [saving, setSaving] = useState<ReadonlyMap<string, number>>(new Map());
  const [privacyApp, setPrivacyApp] = useState<AppCatalogueEntry | null>(null);
  const privacyOpener = useRef<HTMLButtonElement | null>(null);
  const isAdmin = useOrgAccess(orgId).isAdmin;

  useEffect(() => {
    if (settings.isError) notifyError(settingsMessages.loadFailed);
  }, [settings.isError]);

  const mark = (id: string, on: boolean) =>
    setSaving((old) => {
      const next = new Map(old);
      const count = (old.get(id) ?? 0) + (on ? 1 : -1);
      if (count > 0) next.set(id, count);
      else next.delete(id);
      return next;
    });

  const lockedMeanwhile = useLockedMeanwhile(orgId, settingsMessages.loadFailed);

  // Shown at once; only this app's value changes, so rows saved at the same time do not undo each other.
  const update = useUpdateSettings<{ app: AppCatalogueEntry; change: SettingsUpdate }>(orgId, userId, {
    onMutate: ({ app }) => mark(app.id, true),
    onError: (error, { app }) => {
      if (!lockedMeanwhile(error)) notifyError(appsMessages.updateFailed(app.name));
    },
    onSettled: (_data, _error, { app }) => mark(app.id, false),
  });
  const updatePolicy = useUpdateSettingPolicies<{ app: AppCatalogueEntry; change: SettingPoliciesUpdate }>(orgId, {
    onMutate: ({ app }) => mark(app.id, true),
    onError: (error, { app }) => {
      if (!lockedMeanwhile(error)) notifyError(settingPolicyMessages.policyFailed(app.name));
    },
    onSettled: (_data, _error, { app }) => mark(app.id, false),
  });
  const full = sourcesOf(settings.data);


  return (
    <>
      <PageTitle>Manage Apps</PageTitle>
      <Stack gap="md">
        <Text maw={650}>
          Choose which apps teachers and students may use in {productName}. A change applies at once. Open Details to see what each app receives
          and its age limits.
        </Text>
        {full?.hasOrganisationsBelow ? (
          <Text maw={650} size="sm">
            {DISTRICT_TEXT}
          </Text>
        ) : null}
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
            saving={new Set(saving.keys())}
            readOnly={!isAdmin}
            sources={full?.sources.apps}
            policies={full?.hasOrganisationsBelow ? full.policies.apps : undefined}
            onChange={(app, value) => {
              // 'Teachers and students' is stored only against a district default that says otherwise.
              const wanted: AppSettingValue = value ?? APP_PERMISSION_EVERYONE;
              const own = ownValueFor(full?.sources.apps[app.id as keyof typeof full.sources.apps], wanted, APP_PERMISSION_EVERYONE as AppSettingValue);
              update.mutate({ app, change: { apps: { [app.id]: own } } });
            }}
            onUseDefault={(app) => update.mutate({ app, change: { apps: { [app.id]: null } } })}
            onPolicy={(app, policy) => updatePolicy.mutate({ app, change: { apps: { [app.id]: policy } } })}
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
