import { Center, Loader, Paper, Stack, Switch, Text } from '@mantine/core';
import { IMAGE_SEARCH_PIXABAY, settingsMessages, type OrganisationSettingsPayload } from '@quire/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { settingsQueryKey, updateSettings, useIsAdmin, useSettings } from '../../../lib/settings/organisation-settings.js';
import { TurnOffGoogleDialog } from './turn-off-google-dialog.js';

type ImageSearch = OrganisationSettingsPayload['imageSearch'];

/** Image Search Settings (spec §2, §4 "Image search"): Google allowed (unset) or moderated safe images only ('pixabay'). */
export function ImageSearchPage() {
  const session = useSession();
  const { productName } = useConsoleConfig();
  const queryClient = useQueryClient();
  const orgId = session.currentOrganisation?.id ?? '';
  const userId = session.user?.uid;
  const settings = useSettings(orgId, userId);
  const isAdmin = useIsAdmin(orgId, session.user?.email);
  const [confirming, setConfirming] = useState(false);
  const toggle = useRef<HTMLInputElement>(null);
  const key = settingsQueryKey(orgId);

  useEffect(() => {
    if (settings.isError) notifyError(settingsMessages.loadFailed);
  }, [settings.isError]);

  const setImageSearch = (value: ImageSearch) =>
    queryClient.setQueryData<OrganisationSettingsPayload>(key, (old) => (old ? { ...old, imageSearch: value } : old));

  const save = useMutation({
    mutationFn: ({ value }: { value: ImageSearch; previous: ImageSearch }) => updateSettings(orgId, userId, { imageSearch: value }),
    onMutate: async ({ value }) => {
      await queryClient.cancelQueries({ queryKey: key });
      setImageSearch(value);
    },
    onSuccess: (saved) => setImageSearch(saved.imageSearch),
    onError: (_error, { previous }) => {
      setImageSearch(previous);
      notifyError(settingsMessages.imageSearchFailed);
    },
  });

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
                  if (event.currentTarget.checked) save.mutate({ value: null, previous: current });
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
          save.mutate({ value: IMAGE_SEARCH_PIXABAY, previous: current });
          requestAnimationFrame(() => toggle.current?.focus());
        }}
      />
    </>
  );
}
