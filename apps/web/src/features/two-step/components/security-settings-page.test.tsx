import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess, type FakeAnswer, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderRoutes } from '../../../test/render.js';
import { SecuritySettingsPage } from './security-settings-page.js';

afterEach(() => vi.unstubAllGlobals());

const policy = (requireForAdmins: boolean, requiredByAbove = false): FakeAnswer => ({ status: 200, body: { requireForAdmins, requiredByAbove } });

function renderPage(handlers: Record<string, FakeHandler>, access: 'admin' | 'library-manager' = 'admin') {
  const server = fakeFetch({ 'gql getOrganisationAccess': orgAccess(access), ...handlers });
  renderRoutes([{ path: '/:orgId/security', element: <SecuritySettingsPage /> }], '/org-1/security');
  return { server, user: userEvent.setup() };
}

const theSwitch = () => screen.findByRole('switch', { name: /^Require 2-step verification for admins/ });

describe('Settings › Security: the organisation’s 2-step verification policy', () => {
  it('an admin turns the requirement on with the keyboard; the server is asked once and the switch stays on', async () => {
    let required = false;
    const { server, user } = renderPage({
      'GET /api/organisations/org-1/two-step-policy': () => policy(required),
      'PUT /api/organisations/org-1/two-step-policy': ({ text }) => {
        required = (JSON.parse(String(text)) as { requireForAdmins: boolean }).requireForAdmins;
        return policy(required);
      },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Security settings' })).toBeInTheDocument();
    const toggle = await theSwitch();
    expect(toggle).not.toBeChecked();
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAccessibleDescription(/Every admin of Hillside School and of the organisations under it must turn on 2-step verification/);
    await user.tab();
    while (document.activeElement !== toggle) await user.tab();
    await user.keyboard(' ');
    expect(await screen.findByText('2-step verification is now required for admins.')).toBeInTheDocument();
    expect(toggle).toBeChecked();
    const puts = server.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(JSON.parse(String(puts[0]?.text))).toEqual({ requireForAdmins: true });
  });

  it('turns it off again, and says so', async () => {
    const { user } = renderPage({
      'GET /api/organisations/org-1/two-step-policy': () => policy(true),
      'PUT /api/organisations/org-1/two-step-policy': () => policy(false),
    });
    const toggle = await theSwitch();
    await waitFor(() => expect(toggle).toBeChecked());
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    expect(await screen.findByText('2-step verification is no longer required for admins.')).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
  });

  it('shows the server’s refusal and goes back to what is saved', async () => {
    const { user } = renderPage({
      'GET /api/organisations/org-1/two-step-policy': () => policy(false),
      'PUT /api/organisations/org-1/two-step-policy': () => ({ status: 403, body: { code: 'admin_required', message: 'Only admins can do this.' } }),
    });
    const toggle = await theSwitch();
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    expect(await screen.findByText('Only admins can do this.')).toBeInTheDocument();
    await waitFor(() => expect(toggle).not.toBeChecked());
  });

  it('a library manager reads it but cannot change it', async () => {
    renderPage({ 'GET /api/organisations/org-1/two-step-policy': () => policy(true) }, 'library-manager');
    const toggle = await theSwitch();
    expect(toggle).toBeChecked();
    expect(await screen.findByText('Only admins can change this setting.')).toBeInTheDocument();
    expect(toggle).toBeDisabled();
  });

  it('at a school whose district requires it: on, read-only, with the reason', async () => {
    renderPage({ 'GET /api/organisations/org-1/two-step-policy': () => policy(false, true) });
    const toggle = await theSwitch();
    expect(toggle).toBeChecked();
    expect(toggle).toBeDisabled();
    expect(screen.getByRole('note')).toHaveTextContent('Your district requires 2-step verification for the admins of its schools');
  });

  it('offers to try again when the setting cannot be loaded', async () => {
    let fail = true;
    const { user } = renderPage({ 'GET /api/organisations/org-1/two-step-policy': () => (fail ? { status: 500, body: { code: 'internal_error', message: 'Down.' } } : policy(false)) });
    expect(await screen.findByText('The setting could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await theSwitch()).not.toBeChecked();
  });
});
