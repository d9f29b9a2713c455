import { Center, Loader, Paper, Stack, Switch, Text } from '@mantine/core';
import { IMAGE_SEARCH_PIXABAY, settingsMessages, type OrganisationSettingsPayload, type SettingsUpdate } from '@quire/core';
import { useEffect, useRef, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { useSettings } from '../../../lib/settings/get-settings.js';
import { useUpdateSettings } from '../../../lib/settings/update-settings.js';
import { TurnOffGoogleDialog } from './turn-off-google-dialog.js';

type ImageSearch = OrganisationSettingsPayload['imageSearch'];

/** Image Search Settings (spec §2, §4 "Image search"): Google allowed (unset) or moderated safe images only ('pixabay'). */
export function ImageSearchPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const orgId = session.currentOrganisation?.id ?? '';
  const userId = session.user?.uid;
  const settings = useSettings(orgId, userId);
  const isAdmin = useOrgAccess(orgId).isAdmin;
  const [confirming, setConfirming] = useState(false);
  const toggle = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (settings.isError) notifyError(settingsMessages.loadFailed);
  }, [settings.isError]);

  const update = useUpdateSettings<{ change: SettingsUpdate }>(orgId, userId, { onError: () => notifyError(settingsMessages.imageSearchFailed) });
  const save = (value: ImageSearch) => update.mutate({ change: { imageSearch: value } });

  const current = settings.data?.imageSearch ?? null;
  const googleAllowed = current !== IMAGE_SEARCH_PIXABAY;

  return (
    <>
      <PageTitle>Image Search Settings</PageTitle>
      <Stack gap="md" maw={650}>
        <Text>
          Choose how teachers and students search for images in {productName}: with Google image search, or with moderated safe images only
          (Pixabay).
        </Text>
        {settings.isPending ? (
          <Center py="xl" role="status">
            <Loader aria-label="Loading settings" />
          </Center>
        ) : settings.isError ? (
          <LoadError title={settingsMessages.loadFailed} onRetry={() => settings.refetch()} />
        ) : (
          <Paper withBorder p="md">
            <Stack gap="sm">
              <Switch
                ref={toggle}
                size="md"
                label="Allow Google image search"
                description="When off, image search shows moderated safe images only (Pixabay)."
                checked={googleAllowed}
                disabled={!isAdmin}
                onChange={(event) => {
                  if (event.currentTarget.checked) save(null);
                  else setConfirming(true);
                }}
              />
              <Text size="sm" role="status" aria-live="polite">
                {googleAllowed ? 'Image search now uses Google image search.' : 'Image search now shows moderated safe images only (Pixabay).'}
              </Text>
              {!isAdmin ? (
                <Text size="sm" c="dimmed">
                  Only the admins of this organisation can change this setting.
                </Text>
              ) : null}
            </Stack>
          </Paper>
        )}
      </Stack>
      <TurnOffGoogleDialog
        opened={confirming}
        onClose={() => {
          setConfirming(false);
          requestAnimationFrame(() => toggle.current?.focus());
        }}
        onConfirm={() => {
          setConfirming(false);
          save(IMAGE_SEARCH_PIXABAY);
          requestAnimationFrame(() => toggle.current?.focus());
        }}
      />
    </>
  );
}
