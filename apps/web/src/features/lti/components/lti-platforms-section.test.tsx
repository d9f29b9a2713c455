import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { LtiPlatformsSection } from './lti-platforms-section.js';

afterEach(() => vi.unstubAllGlobals());

const tool = { loginUrl: 'https://quire.test/lti/1.3/login', launchUrl: 'https://quire.test/lti/1.3/launch', jwksUrl: 'https://quire.test/lti/1.3/jwks', domain: 'quire.test' };
const moodle = {
  id: 'p-1',
  name: 'Moodle (moodle.school.test)',
  issuer: 'https://moodle.school.test',
  clientId: 'client-7',
  deploymentIds: ['1'],
  authEndpoint: 'https://moodle.school.test/mod/lti/auth.php',
  tokenEndpoint: 'https://moodle.school.test/mod/lti/token.php',
  jwksUrl: 'https://moodle.school.test/mod/lti/certs.php',
};

describe('LTI 1.3: Register with a platform', { timeout: 20_000 }, () => {
  it('shows a single-use registration URL, and the list read again when the dialog closes, focus back on the button', async () => {
    let registered = false;
    const server = fakeFetch({
      'GET /api/organisations/org-1/lti/platforms': () => ({ body: { ...tool, platforms: registered ? [moodle] : [] } }),
      'POST /api/organisations/org-1/lti/registrations': () => ({
        body: { url: 'https://quire.test/lti/1.3/register?t=abc.def', expiresAt: new Date(Date.now() + 600_000).toISOString() },
      }),
    });
    renderAt(<LtiPlatformsSection orgId="org-1" />);
    const button = await screen.findByRole('button', { name: 'Register with a platform' });
    const user = userEvent.setup();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Register with a learning platform' });
    expect(within(dialog).getByText('https://quire.test/lti/1.3/register?t=abc.def')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy registration URL' })).toBeInTheDocument();
    expect(within(dialog).getByText(/It works once, until/)).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

    registered = true;
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    const platforms = await screen.findByRole('table', { name: 'Learning platforms' });
    expect(within(platforms).getByText('Moodle (moodle.school.test)')).toBeInTheDocument();
    await waitFor(() => expect(button).toHaveFocus());
  });
});
