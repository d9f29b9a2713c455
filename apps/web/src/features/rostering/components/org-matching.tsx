import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import type { RosterOrgSetup } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { userFacingMessage } from '../../../lib/api/index.js';
import { notifyError, notifyInfo } from '../../../lib/notify.js';
import { useSaveRosterOrgs } from '../api/roster-orgs.js';

/** The ids as the admin types them: several for one organisation are separated by commas. */
const splitIds = (text: string) => text.split(',').map((id) => id.trim()).filter(Boolean);

function draftOf(setup: RosterOrgSetup): Record<string, string> {
  const draft: Record<string, string> = {};
  for (const org of setup.organisations) draft[org.id] = setup.links.filter((l) => l.organisationId === org.id).map((l) => l.sourcedId).join(', ');
  return draft;
}

/**
 * Which OneRoster org (its sourcedId in orgs.csv) is this organisation and which are its schools: set once, because
 * people are placed by these ids and an org that is not matched is never guessed.
 */
export function OrgMatching({ orgId, setup }: { orgId: string; setup: RosterOrgSetup }) {
  const [draft, setDraft] = useState(() => draftOf(setup));
  const save = useSaveRosterOrgs(orgId, {
    onSuccess: (saved) => {
      setDraft(draftOf(saved));
      notifyInfo('OneRoster ids saved');
    },
    onError: (error) => notifyError(userFacingMessage(error) ?? 'The OneRoster ids could not be saved'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const links = setup.organisations.flatMap((org) => splitIds(draft[org.id] ?? '').map((sourcedId) => ({ sourcedId, organisationId: org.id })));
    save.mutate({ links });
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="roster-orgs-title">
      <Title order={2} size="h3" id="roster-orgs-title">
        OneRoster ids
      </Title>
      <Text size="sm">
        The sourcedId of each organisation in your export’s orgs.csv (the district and its schools). People are placed by these ids; an org without a
        match is listed in the preview and its people are not imported.
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          {setup.organisations.map((org) => (
            <TextInput
              key={org.id}
              label={`OneRoster id of ${org.name}`}
              description={org.id === orgId ? 'This organisation' : undefined}
              value={draft[org.id] ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setDraft((d) => ({ ...d, [org.id]: value }));
              }}
              maw={480}
            />
          ))}
          <Group>
            <Button type="submit" variant="default" loading={save.isPending}>
              Save OneRoster ids
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
