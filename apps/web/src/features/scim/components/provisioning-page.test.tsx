import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { ProvisioningPage, SCIM_ADMINS_ONLY_TEXT } from './provisioning-page.js';

afterEach(() => vi.unstubAllGlobals());

const TOKENS = 'GET /api/organisations/:orgId/scim/tokens';
const REQUESTS = 'GET /api/organisations/:orgId/scim/requests';
const baseUrl = 'https://quire.test/scim/v2';
const groups = { admins: 'Quire Admins', libraryManagers: 'Quire Library Managers' };
const existing = { id: 't-1', hint: 'abcd', createdAt: '2026-03-05T08:15:00.000Z', createdBy: 'admin@school.example.org', lastUsedAt: null };
const listed = { id: 't-2', hint: 'wxyz', createdAt: '2026-03-06T09:00:00.000Z', createdBy: 'admin@school.example.org', lastUsedAt: null };
const generated = { id: 't-2', hint: 'wxyz', createdAt: '2026-03-06T09:00:00.000Z', createdBy: 'admin@school.example.org', lastUsedAt: null, token: 'quire_scim_secret-token-wxyz' };

describe('Provisioning (SCIM)', () => {
  it('shows the base URL, a new token once with its copy button, and revokes a token only after confirming', async () => {
    let tokens = [existing];
    const server = fakeFetch({
      [TOKENS]: () => ({ body: { baseUrl, tokens, groups } }),
      [REQUESTS]: () => ({
        body: { requests: [{ at: '2026-03-06T09:01:00.000Z', method: 'POST', operation: 'Create user', user: 'ada@school.example.org', status: 201, outcome: 'OK' }] },
      }),
      'POST /api/organisations/:orgId/scim/tokens': () => {
        tokens = [listed, existing];
        return { body: generated };
      },
      'DELETE /api/organisations/:orgId/scim/tokens/:tokenId': () => {
        tokens = [listed];
        return { body: { baseUrl, tokens, groups } };
      },
    });
    renderAt(<ProvisioningPage />);
    expect(await screen.findByText(baseUrl)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy SCIM base URL' })).toBeInTheDocument();
    // The groups that give roles, by the names the identity provider's admin must use.
    expect(screen.getByRole('heading', { level: 2, name: 'Groups' })).toBeInTheDocument();
    expect(screen.getByText('Quire Admins').closest('p')).toHaveTextContent('Members of a group named Quire Admins become admins of this organisation.');
    expect(screen.getByText('Quire Library Managers').closest('p')).toHaveTextContent(
      'Members of a group named Quire Library Managers become library managers. Teachers who have not signed up yet stay listed in the group and become library managers when they sign up.',
    );
    const table = screen.getByRole('table', { name: 'SCIM tokens' });
    expect(within(table).getByText('…abcd')).toBeInTheDocument();
    expect(within(table).getByText('Never')).toBeInTheDocument();
    const log = await screen.findByRole('table', { name: 'Recent SCIM requests' });
    expect(within(log).getByText('ada@school.example.org')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New SCIM token' });
    expect(within(dialog).getByText(generated.token)).toBeInTheDocument();
    expect(within(dialog).getByText('Copy this token now: it will not be shown again')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers['idempotency-key']).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'I have copied the token' }));
    await waitFor(() => expect(screen.queryByText(generated.token)).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate token' })).toHaveFocus());

    const revokeButton = await screen.findByRole('button', { name: 'Revoke token ending in abcd' });
    await user.click(revokeButton);
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Revoke token ending in abcd' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByText('…abcd')).not.toBeInTheDocument());
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/organisations/org-1/scim/tokens/t-1']);
  });

  it('tells a library manager that only admins set up provisioning', async () => {
    fakeFetch({ [TOKENS]: () => ({ status: 403, body: { code: 'admin_required', message: 'Your account cannot perform this action' } }) });
    renderAt(<ProvisioningPage />);
    expect(await screen.findByText(SCIM_ADMINS_ONLY_TEXT)).toBeInTheDocument();
  });
});
