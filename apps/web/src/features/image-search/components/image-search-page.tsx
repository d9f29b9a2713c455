import { Paper, Stack, Switch, Text } from '@mantine/core';
import {
  IMAGE_SEARCH_GOOGLE,
  IMAGE_SEARCH_PIXABAY,
  settingPolicyMessages,
  settingsMessages,
  type ImageSearchValue,
  type SettingPoliciesUpdate,
  type SettingsUpdate,
} from '@quire/core';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { notifyError } from '../../../lib/notify.js';
import { useSession } from '../../../lib/session/index.js';
import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { SchoolPolicyControl } from '../../../components/ui/school-policy-control.js';
import { SettingSourceNote, sourceNote } from '../../../components/ui/setting-source-note.js';
import { SectionLoader } from '../../../components/ui/section-loader.js';
import { useSettings } from '../../../lib/settings/get-settings.js';
import { ownValueFor, sourcesOf } from '../../../lib/settings/setting-sources.js';
import { useUpdateSettingPolicies } from '../../../lib/settings/update-setting-policies.js';
import { useUpdateSettings } from '../../../lib/settings/update-settings.js';
import { useLockedMeanwhile } from '../../../lib/settings/use-locked-meanwhile.js';

const IMAGE_SEARCH_LABELS: Record<ImageSearchValue, string> = {
  google: 'Google image search allowed',
  pixabay: 'Moderated safe images only (Pixabay)',
};
const NOTE_ID = 'image-search-source';

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

  const lockedMeanwhile = useLockedMeanwhile(orgId, settingsMessages.imageSearchFailed);
  const update = useUpdateSettings<{ change: SettingsUpdate }>(orgId, userId, {
    onError: (error) => {
      if (!lockedMeanwhile(error)) notifyError(settingsMessages.imageSearchFailed);
    },
  });
  const updatePolicy = useUpdateSettingPolicies<{ change: SettingPoliciesUpdate }>(orgId, {
    onError: (error) => {
      if (!lockedMeanwhile(error)) notifyError(settingPolicyMessages.policyFailed('image search'));
    },
  });
  const full = sourcesOf(settings.data);
  const source = full?.sources.imageSearch;
  const locked = source?.from === 'locked';
  // Google is stored only against a district default of Pixabay; otherwise 'on' is the built-in value.
  const save = (wanted: ImageSearchValue) =>
    update.mutate({ change: { imageSearch: ownValueFor(source, wanted, IMAGE_SEARCH_GOOGLE as ImageSearchValue) } });

  const current = settings.data?.imageSearch ?? null;
  const googleAllowed = current !== IMAGE_SEARCH_PIXABAY;
  const policy = full?.policies.imageSearch ?? null;

  return (
    <>
      <PageTitle>Image Search Settings</PageTitle>
      <Stack gap="md" maw={650}>
        <Text>
          Choose how teachers and students search for images in {productName}: with Google image search, or with moderated safe images only
          (Pixabay).
        </Text>
        {settings.isPending ? (
          <SectionLoader label="Loading settings" />
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
                disabled={!isAdmin || locked}
                // Mantine adds its description's id to this one.
                aria-describedby={sourceNote(source, (value: ImageSearchValue) => IMAGE_SEARCH_LABELS[value]) ? NOTE_ID : undefined}
                onChange={(event) => {
                  if (event.currentTarget.checked) save(IMAGE_SEARCH_GOOGLE);
                  else setConfirming(true);
                }}
              />
              <SettingSourceNote
                id={NOTE_ID}
                source={source}
                labelOf={(value: ImageSearchValue) => IMAGE_SEARCH_LABELS[value]}
                settingName="Image search"
                onUseDefault={isAdmin ? () => update.mutate({ change: { imageSearch: null } }) : undefined}
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
        {full?.hasOrganisationsBelow ? (
          <Paper withBorder p="md">
            <Text size="sm">Image search for every school of this district: a default each school may change, or locked with 'Lock for schools'.</Text>
            <SchoolPolicyControl
              settingName="Image search"
              choices={([IMAGE_SEARCH_GOOGLE, IMAGE_SEARCH_PIXABAY] as const).map((value) => ({ value, label: IMAGE_SEARCH_LABELS[value] }))}
              policy={policy}
              disabled={!isAdmin || locked}
              description={locked ? sourceNote(source, (value: ImageSearchValue) => IMAGE_SEARCH_LABELS[value]) : null}
              onChange={(next) => updatePolicy.mutate({ change: { imageSearch: next ? { mode: next.mode, value: next.value as ImageSearchValue } : null } })}
            />
          </Paper>
        ) : null}
      </Stack>
      {/* Switching Google image search off asks first (spec §4 "Image search"). */}
      <ConfirmDialog
        opened={confirming}
        title="Turn off Google image search?"
        confirmLabel="Turn off"
        onClose={() => {
          setConfirming(false);
          requestAnimationFrame(() => toggle.current?.focus());
        }}
        onConfirm={() => {
          setConfirming(false);
          save(IMAGE_SEARCH_PIXABAY);
          requestAnimationFrame(() => toggle.current?.focus());
        }}
      >
        Teachers and students will only find moderated safe images (Pixabay) when they search for images. You can turn Google image search back on at
        any time.
      </ConfirmDialog>
    </>
  );
}
