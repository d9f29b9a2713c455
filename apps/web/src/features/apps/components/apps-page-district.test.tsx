import { resolveSettings, settingPolicyMessages, type EffectiveSettings, type OrganisationSettingsNode } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { AppsPage } from './apps-page.js';

afterEach(() => vi.unstubAllGlobals());

const DISTRICT = { id: 'district-1', name: 'Riverside District' };

/** GET …/settings?include=sources as the server answers it, resolved with the server's rule from a chain (school first). */
function answer(chain: OrganisationSettingsNode[], hasOrganisationsBelow = false): EffectiveSettings {
  const resolved = resolveSettings(chain);
  return {
    organisationId: chain[0]!.id,
    apps: resolved.apps,
    imageSearch: resolved.imageSearch,
    sources: resolved.sources as EffectiveSettings['sources'],
    policies: { apps: chain[0]!.policies.apps, imageSearch: chain[0]!.policies.imageSearch ?? null } as EffectiveSettings['policies'],
    hasOrganisationsBelow,
  };
}

const school = (apps: OrganisationSettingsNode['own']['apps']): OrganisationSettingsNode => ({ id: 'org-1', name: 'Oak School', own: { apps }, policies: { apps: {} } });
const district = (policies: OrganisationSettingsNode['policies']['apps']): OrganisationSettingsNode => ({ ...DISTRICT, own: { apps: {} }, policies: { apps: policies } });

describe('Manage Apps under a district', () => {
  it('shows a locked value greyed and disabled, says who set it and who may change it, and names that text', async () => {
    fakeFetch({
      'gql getOrganisationAccess': orgAccess('admin'),
      'GET /api/organisations/org-1/settings': { body: answer([school({ giphy: 1 }), district({ giphy: { mode: 'locked', value: -1 } })]) },
    });
    renderAt(<AppsPage />);
    const select = await screen.findByRole('combobox', { name: 'Permissions: GIPHY' });
    expect(select).toBeDisabled();
    expect(select).toHaveValue('-1');
    expect(select).toHaveAccessibleDescription(settingPolicyMessages.locked(DISTRICT.name));
    // Apps the district leaves to schools stay the school's.
    expect(screen.getByRole('combobox', { name: 'Permissions: Canva' })).toBeEnabled();
    expect(screen.getByRole('combobox', { name: 'Permissions: Canva' })).not.toHaveAccessibleDescription();
    // A school has nothing under it: no choices for schools.
    expect(screen.queryByRole('combobox', { name: /^For schools/ })).toBeNull();
  });

  it('follows a district default until the school chooses its own, then offers Use district default', async () => {
    const server = fakeFetch({
      'gql getOrganisationAccess': orgAccess('admin'),
      'GET /api/organisations/org-1/settings': { body: answer([school({}), district({ canva: { mode: 'default', value: -1 } })]) },
      'PATCH /api/organisations/org-1/settings': ({ body }) => {
        const own = (body as { apps: Record<string, 0 | 1 | -1 | null> }).apps;
        return { body: { apps: own.canva === null ? { canva: -1 } : {}, imageSearch: null } };
      },
    });
    renderAt(<AppsPage />);
    const user = userEvent.setup();
    const select = await screen.findByRole('combobox', { name: 'Permissions: Canva' });
    expect(select).toBeEnabled();
    expect(select).toHaveAccessibleDescription(settingPolicyMessages.followsDefault(DISTRICT.name));

    // 'Teachers and students' against a default of 'Disabled for everyone' is stored on purpose (0).
    await user.selectOptions(select, 'Teachers and students');
    await waitFor(() => expect(server.find('PATCH', '/api/organisations/org-1/settings')).toHaveLength(1));
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[0]?.body).toEqual({ apps: { canva: 0 } });
    const note = settingPolicyMessages.overridesDefault(DISTRICT.name, 'Disabled for everyone');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Permissions: Canva' })).toHaveAccessibleDescription(note));

    await user.click(screen.getByRole('button', { name: `${settingPolicyMessages.useDistrictDefault}: Canva` }));
    await waitFor(() => expect(server.find('PATCH', '/api/organisations/org-1/settings')).toHaveLength(2));
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[1]?.body).toEqual({ apps: { canva: null } });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Permissions: Canva' })).toHaveValue('-1'));
  });

  it('at a district, applies a value to its schools as a default, then locks it', async () => {
    const here: OrganisationSettingsNode = { ...DISTRICT, id: 'org-1', own: { apps: {} }, policies: { apps: {} } };
    const server = fakeFetch({
      'gql getOrganisationAccess': orgAccess('admin'),
      'GET /api/organisations/org-1/settings': { body: answer([here], true) },
      'PATCH /api/organisations/org-1/setting-policies': ({ body }) => {
        const change = (body as { apps: OrganisationSettingsNode['policies']['apps'] }).apps;
        here.policies = { apps: { ...here.policies.apps, ...change } };
        return { body: answer([here], true) };
      },
    });
    renderAt(<AppsPage />);
    const user = userEvent.setup();
    const forSchools = await screen.findByRole('combobox', { name: `${settingPolicyMessages.forSchools}: GIPHY` });
    expect(forSchools).toHaveValue('decide');
    expect(screen.queryByRole('checkbox', { name: `${settingPolicyMessages.lockForSchools}: GIPHY` })).toBeNull();

    await user.selectOptions(forSchools, 'Disabled for everyone');
    await waitFor(() => expect(server.find('PATCH', '/api/organisations/org-1/setting-policies')).toHaveLength(1));
    expect(server.find('PATCH', '/api/organisations/org-1/setting-policies')[0]?.body).toEqual({ apps: { giphy: { mode: 'default', value: -1 } } });

    const lock = await screen.findByRole('checkbox', { name: `${settingPolicyMessages.lockForSchools}: GIPHY` });
    lock.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(server.find('PATCH', '/api/organisations/org-1/setting-policies')).toHaveLength(2));
    expect(server.find('PATCH', '/api/organisations/org-1/setting-policies')[1]?.body).toEqual({ apps: { giphy: { mode: 'locked', value: -1 } } });
    await waitFor(() => expect(lock).toBeChecked());
    // The district's own permission for its own teachers is a separate choice.
    expect(within(screen.getByRole('table', { name: 'Apps' })).getByRole('combobox', { name: 'Permissions: GIPHY' })).toHaveValue('unset');
  });
});
