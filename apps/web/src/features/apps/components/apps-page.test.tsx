import { appsMessages, APP_CATALOGUE, settingsMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { AppsPage } from './apps-page.js';

afterEach(() => vi.unstubAllGlobals());

const admins = orgAccess('admin');
const settings = (apps: Record<string, number>): FakeHandler => () => ({ body: { apps, imageSearch: null } });

describe('Manage Apps', () => {
  it('lists the ten apps and saves a change as a partial update', async () => {
    const server = fakeFetch({
      'gql getOrganisationAccess': admins,
      'GET /api/organisations/org-1/settings': settings({}),
      'PATCH /api/organisations/org-1/settings': ({ body }) => ({ body: { apps: (body as { apps: Record<string, number> }).apps, imageSearch: null } }),
    });
    renderAt(<AppsPage />);
    const table = await screen.findByRole('table', { name: 'Apps' });
    expect(within(table).getAllByRole('row')).toHaveLength(APP_CATALOGUE.length + 1);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Permissions: GIPHY' }), 'Disabled for everyone');
    await waitFor(() => expect(server.find('PATCH', '/api/organisations/org-1/settings')).toHaveLength(1));
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[0]?.body).toEqual({ apps: { giphy: -1 } });
    expect(server.find('PATCH', '/api/organisations/org-1/settings')[0]?.query.get('userId')).toBe('user-1');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Permissions: GIPHY' })).toHaveValue('-1'));
  });

  it('reverts a failed change with a message', async () => {
    fakeFetch({
      'gql getOrganisationAccess': admins,
      'GET /api/organisations/org-1/settings': settings({ canva: 1 }),
      'PATCH /api/organisations/org-1/settings': () => ({ status: 500, body: { code: 'internal_error', message: 'Something went wrong' } }),
    });
    renderAt(<AppsPage />);
    const select = await screen.findByRole('combobox', { name: 'Permissions: Canva' });
    expect(select).toHaveValue('1');
    await userEvent.setup().selectOptions(select, 'Disabled for everyone');
    expect(await screen.findByText(appsMessages.updateFailed('Canva'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Permissions: Canva' })).toHaveValue('1'));
  });

  it("says 'Settings could not be loaded' when the read fails", async () => {
    fakeFetch({ 'gql getOrganisationAccess': admins, 'GET /api/organisations/org-1/settings': () => ({ status: 403, body: { code: 'forbidden', message: 'no' } }) });
    renderAt(<AppsPage />);
    expect((await screen.findAllByText(settingsMessages.loadFailed)).length).toBeGreaterThan(0);
  });
});
