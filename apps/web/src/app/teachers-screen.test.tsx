import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess } from '../test/fake-fetch.js';
import { buildMember } from '../test/fixtures.js';
import { renderAt } from '../test/render.js';
import { TeachersScreen } from './teachers-screen.js';

afterEach(() => vi.unstubAllGlobals());

const member = (id: string, email: string, pending: boolean) =>
  buildMember({
    id,
    userId: pending ? null : `u-${id}`,
    email,
    displayName: email.split('@')[0] ?? '',
    role: pending ? -600 : 600,
    pending,
    signedUpAt: pending ? null : '2024-01-01T00:00:00.000Z',
  });

function setup() {
  const server = fakeFetch({
    'gql getOrganisationById': () => ({
      body: {
        data: {
          getOrganisationById: {
            id: 'org-1',
            name: 'Hillside School',
            isDomain: false,
            features: { orgLibraries: true, visitLibraries: true },
            licenses: [],
          },
        },
      },
    }),
    'gql getOrganisationAccess': orgAccess('admin'),
    'GET /payments/v1/admin/organisations/org-1/members/teachers': () => ({
      body: { members: [member('m-kim', 'kim@school.test', false), member('m-pat', 'pat@school.test', true)], total: 2, page: 1, pageSize: 10 },
    }),
    'GET /api/m-kim': () => ({ body: { unarchived: [], archived: [] } }),
    'GET /payments/v1/admin/organisations/org-1/members/m-kim/book-counts': () => ({ body: { owned: 0, private: 2, total: 2 } }),
    'gql revokeMembership': () => ({ body: { data: { revokeMembership: { memberIds: ['m-pat'] } } } }),
  });
  renderAt(<TeachersScreen />, '/org-1/teachers');
  return { server, user: userEvent.setup() };
}

describe('the Teachers screen with the teacher-libraries dialogs', () => {
  it('View Profile opens the teacher library viewer, whose Manage libraries opens the wizard', async () => {
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for kim@school.test' }));
    const menu = await screen.findByRole('menu');
    // A signed-up teacher is removed by provider staff only.
    expect(within(menu).queryByRole('menuitem', { name: 'Remove teacher' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: 'View Profile' }));
    expect(await screen.findByRole('dialog', { name: 'kim’s libraries' })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Manage libraries' }));
    expect(await screen.findByRole('dialog', { name: 'Manage Teacher Libraries' })).toBeInTheDocument();
  });

  it('Remove teacher on a pending teacher removes them and reloads the list', async () => {
    const { server, user } = setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for pat@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove teacher' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove teacher' });
    const before = server.find('GET', '/payments/v1/admin/organisations/org-1/members/teachers').length;
    await user.click(within(dialog).getByRole('button', { name: 'Remove teacher' }));
    await waitFor(() => expect(server.find('GET', '/payments/v1/admin/organisations/org-1/members/teachers').length).toBeGreaterThan(before));
    expect(server.requests.find((r) => r.operation === 'revokeMembership')?.variables).toEqual({ orgId: 'org-1', memberIds: ['m-pat'] });
  });
});
