import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAuth } from '../auth-test-helpers.js';
import { adaIdentity, fakeBackend } from '../../../test/fake-session.js';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const two = [
  { id: 'org-a', name: 'Alder Academy' },
  { id: 'org-b', name: 'Birch District' },
];

describe('RequireSession', () => {
  it('sends a signed-out visitor to /sign-in and remembers where they were going', async () => {
    renderAuth('/org-a/teachers?tab=inactive', fakeBackend());
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/sign-in$/);
    expect(sessionStorage.getItem('quire.returnTo')).toBe('/org-a/teachers?tab=inactive');
  });

  it('sends an unverified user to /sign-in/verify-email', async () => {
    renderAuth('/org-a', fakeBackend({ getSession: vi.fn().mockResolvedValue({ ...adaIdentity, emailVerified: false }) }));
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
  });

  it('reopens the organisation named in the address after a reload', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockResolvedValue(two) });
    renderAuth('/org-b/teachers', backend);
    expect(await screen.findByText('Console home')).toBeInTheDocument();
    expect(backend.getOrganisation).toHaveBeenCalledWith('org-b');
    expect(screen.getByTestId('location')).toHaveTextContent('/org-b/teachers');
  });

  it('shows the picker when no organisation is loaded and the address names none of the user', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockResolvedValue(two) });
    renderAuth('/org-zzz/teachers', backend);
    expect(await screen.findByRole('heading', { name: 'Select Organization' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in/organisation');
  });

  it('signs out with "You do not have an account on this site" when there are no organisations', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockResolvedValue([]) });
    renderAuth('/org-a', backend);
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have an account on this site');
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(backend.signOut).toHaveBeenCalled();
  });

  it('fails the sign-in when the organisations request fails', async () => {
    const backend = fakeBackend({
      getSession: vi.fn().mockResolvedValue(adaIdentity),
      getOrganisations: vi.fn().mockRejectedValue(new Error('offline')),
    });
    renderAuth('/', backend);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong logging you in, please try again.');
    await waitFor(() => expect(backend.signOut).toHaveBeenCalled());
  });
});
