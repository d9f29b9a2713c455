import { lmsMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, graphqlError } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { ADMINS_ONLY_TEXT, LmsPage } from './lms-page.js';

afterEach(() => vi.unstubAllGlobals());

const endpoints = { launchUrl: 'https://quire.test/lti/launch', domain: 'quire.test', cartridgeUrl: 'https://quire.test/lti/cartridge.xml' };
const none = { consumerKey: null, consumerSecret: null, ...endpoints, usersCreated: 0 };
const some = { consumerKey: 'a'.repeat(32), consumerSecret: 'top-secret-value', ...endpoints, usersCreated: 1234 };

describe('LMS Integration', () => {
  it('shows Not generated, generates, and revokes only after Confirm', async () => {
    const server = fakeFetch({
      'gql getOrganisationById': () => ({ body: { data: { getOrganisationById: { id: 'org-1', lti: none } } } }),
      'gql generateLTICredentials': () => ({ body: { data: { generateLTICredentials: some } } }),
      'gql revokeLTICredentials': () => ({ body: { data: { revokeLTICredentials: none } } }),
    });
    renderAt(<LmsPage />);
    const table = await screen.findByRole('table', { name: 'LTI Configuration' });
    expect(within(table).getAllByText(lmsMessages.notGenerated)).toHaveLength(2);
    expect(within(table).getByText('Public - send name and email')).toBeInTheDocument();
    expect(within(table).getByText('Yes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: endpoints.cartridgeUrl })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await within(table).findByText('top-secret-value')).toBeInTheDocument();
    expect(screen.getByText('1,234 people have accounts made by launches from your learning platform.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(server.requests.filter((r) => r.operation === 'revokeLTICredentials')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(table).getAllByText(lmsMessages.notGenerated)).toHaveLength(2));
    expect(server.requests.filter((r) => r.operation === 'revokeLTICredentials')).toHaveLength(1);
  });

  it('tells a library manager that only admins see the credentials', async () => {
    fakeFetch({ 'gql getOrganisationById': () => graphqlError('Your account cannot perform this action', 'admin_required') });
    renderAt(<LmsPage />);
    expect(await screen.findByText(ADMINS_ONLY_TEXT)).toBeInTheDocument();
    expect(screen.queryByText(lmsMessages.loadFailed)).not.toBeInTheDocument();
  });

  it("says 'There was a problem getting the credentials' when they cannot be loaded", async () => {
    fakeFetch({ 'gql getOrganisationById': () => graphqlError('boom', 'internal_error') });
    renderAt(<LmsPage />);
    expect((await screen.findAllByText(lmsMessages.loadFailed)).length).toBeGreaterThan(0);
  });
});
