import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuth } from '../auth-test-helpers.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';

const organisations = [
  { id: 'org-a', name: 'Alder Academy' },
  { id: 'org-b', name: 'Birch District' },
  { id: 'org-c', name: 'Cedar School' },
];

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

/** A user who just signed in (the picker is for fresh sign-ins) with three organisations. */
async function signInThenPick(path = '/sign-in/email/ada%40school.test') {
  const backend = fakeBackend({ getOrganisations: vi.fn().mockResolvedValue(organisations) });
  const view = renderAuth(path, backend);
  return { backend, ...view };
}

describe('/sign-in/organisation', () => {
  it('keeps Submit disabled until an organisation is chosen, then opens it and remembers it', async () => {
    const backend = fakeBackend({
      getSession: vi.fn().mockResolvedValue(adaIdentity),
      getOrganisations: vi.fn().mockResolvedValue(organisations),
    });
    renderAuth('/sign-in/organisation', backend);
    expect(await screen.findByRole('heading', { name: 'Select Organization' })).toBeInTheDocument();
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Organization' }), 'Bir');
    await user.click(await screen.findByRole('option', { name: 'Birch District' }));
    expect(submit).toBeEnabled();
    await user.click(submit);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/org-b$/));
    expect(backend.getOrganisation).toHaveBeenCalledWith('org-b');
    expect(localStorage.getItem('BC_ORG')).toBe('org-b');
  });

  it('preselects the remembered organisation (BC_ORG)', async () => {
    localStorage.setItem('BC_ORG', 'org-c');
    renderAuth(
      '/sign-in/organisation',
      fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockResolvedValue(organisations) }),
    );
    expect(await screen.findByRole('combobox', { name: 'Organization' })).toHaveValue('Cedar School');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('after sign-in, preselects the organisation of the deep link and returns to it', async () => {
    localStorage.setItem('BC_ORG', 'org-c');
    const { backend } = await signInThenPick('/org-b/teachers');
    // Signed out: the guard sends the visitor to sign in, remembering the deep link.
    await screen.findByRole('heading', { name: 'Sign in' });
    vi.mocked(backend.getSession).mockResolvedValue(adaIdentity);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'Sign in with email' }));
    await user.type(await screen.findByLabelText(/^Email/), 'ada@school.test');
    fakeFetch({ 'GET /api/users/v2/providers/:email': { body: ['password'] }, 'GET /auth/methods': { body: { google: true, office365: true, email: true } } });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText(/^Password/), 'secret1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const picker = await screen.findByRole('combobox', { name: 'Organization' });
    expect(picker).toHaveValue('Birch District');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/org-b/teachers'));
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('selects a single organisation automatically', async () => {
    renderAuth(
      '/sign-in/organisation',
      fakeBackend({
        getSession: vi.fn().mockResolvedValue(adaIdentity),
        getOrganisations: vi.fn().mockResolvedValue([{ id: 'org-a', name: 'Alder Academy' }]),
      }),
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/org-a$/));
    expect(await screen.findByText('Console home')).toBeInTheDocument();
  });
});
