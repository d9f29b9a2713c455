import { resolveSettings, settingPolicyMessages, settingsMessages, type OrganisationSettingsNode } from '@quire/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { ImageSearchPage } from './image-search-page.js';

afterEach(() => vi.unstubAllGlobals());

const admins = orgAccess('admin');

describe('Image Search Settings', () => {
  it('asks before switching Google off; Cancel changes nothing; switching on applies at once', async () => {
    const server = fakeFetch({
      'gql getOrganisationAccess': admins,
      'GET /api/organisations/org-1/settings': () => ({ body: { apps: {}, imageSearch: null } }),
      'PATCH /api/organisations/org-1/settings': ({ body }) => ({ body: { apps: {}, imageSearch: (body as { imageSearch: string | null }).imageSearch } }),
    });
    renderAt(<ImageSearchPage />);
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: /Allow Google image search/ });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Turn off Google image search?' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(server.find('PATCH', '/api/organisations/org-1/settings')).toHaveLength(0);

    await user.click(toggle);
    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[0]?.body).toEqual({ imageSearch: 'pixabay' });

    await user.click(toggle);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[1]?.body).toEqual({ imageSearch: null });
  });

  it('reverts with the spec’s message when the save fails', async () => {
    fakeFetch({
      'gql getOrganisationAccess': admins,
      'GET /api/organisations/org-1/settings': () => ({ body: { apps: {}, imageSearch: 'pixabay' } }),
      'PATCH /api/organisations/org-1/settings': () => ({ status: 500, body: { code: 'internal_error', message: 'boom' } }),
    });
    renderAt(<ImageSearchPage />);
    const toggle = await screen.findByRole('switch', { name: /Allow Google image search/ });
    expect(toggle).not.toBeChecked();
    await waitFor(() => expect(toggle).toBeEnabled());
    await userEvent.setup().click(toggle);
    expect(await screen.findByText(settingsMessages.imageSearchFailed)).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
  });
});

describe('Image Search Settings under a district', () => {
  it('disables the switch a district locked, and says who set it and who may change it', async () => {
    const chain: OrganisationSettingsNode[] = [
      { id: 'org-1', name: 'Oak School', own: { apps: {}, imageSearch: 'google' }, policies: { apps: {} } },
      { id: 'district-1', name: 'Riverside District', own: { apps: {} }, policies: { apps: {}, imageSearch: { mode: 'locked', value: 'pixabay' } } },
    ];
    const resolved = resolveSettings(chain);
    fakeFetch({
      'gql getOrganisationAccess': admins,
      'GET /api/organisations/org-1/settings': {
        body: { organisationId: 'org-1', apps: resolved.apps, imageSearch: resolved.imageSearch, sources: resolved.sources, policies: { apps: {}, imageSearch: null }, hasOrganisationsBelow: false },
      },
    });
    renderAt(<ImageSearchPage />);
    const toggle = await screen.findByRole('switch', { name: /Allow Google image search/ });
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription(expect.stringContaining(settingPolicyMessages.locked('Riverside District')));
  });
});
