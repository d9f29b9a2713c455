import { libraryMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { kim, library, organisationRoutes, session } from '../test/library-fixtures.js';
import { TeacherLibraryViewer } from './teacher-library-viewer.js';

afterEach(() => vi.unstubAllGlobals());

const librariesRoute: FakeHandler = () => ({
  body: {
    unarchived: [
      library({ id: 'l-sci', name: 'Science Projects', bookCount: 12, userCount: 5, role: 100 }),
      library({ id: 'l-art', name: 'Art Club', bookCount: 4, userCount: 9, role: 800, isOwner: false }),
      library({ id: 'l-ro', name: 'Staff Room', bookCount: 2, userCount: 3, role: 900, isOwner: false }),
      library({ id: 'l-joined', name: 'Year 5', bookCount: 1, userCount: 2, role: 500, joined: true }),
    ],
    archived: [],
  },
});

const routes = (overrides: Record<string, FakeHandler> = {}) => ({
  ...organisationRoutes(),
  'GET /api/m-kim': librariesRoute,
  'GET /payments/v1/admin/organisations/org-1/members/m-kim/book-counts': () => ({ body: { owned: 19, private: 7, total: 26 } }),
  ...overrides,
});

function renderViewer(onManageLibraries = vi.fn()) {
  renderAt(<TeacherLibraryViewer teacher={{ ...kim, role: 400 }} opened onClose={vi.fn()} onManageLibraries={onManageLibraries} />, '/', { session: session() });
  return { user: userEvent.setup(), onManageLibraries };
}

const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('the teacher library viewer', () => {
  it('shows who the teacher is, the counts, and My Books as Private in All', async () => {
    const server = fakeFetch(routes());
    renderViewer();
    const dialog = await screen.findByRole('dialog', { name: 'Kim Park’s libraries' });
    expect(within(dialog).getByText('kim@school.test')).toBeInTheDocument();
    expect(await within(dialog).findByText('Library Manager')).toBeInTheDocument();
    expect(await within(dialog).findByText('Hillside School')).toBeInTheDocument();
    // Four listed libraries plus My Books; the books total comes from book-counts.
    expect(await within(dialog).findByLabelText(/^Libraries: 5\./)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Books: 26\./)).toBeInTheDocument();
    await within(dialog).findByRole('table', { name: 'All libraries' });
    expect(within(rowOf('My Books')).getByText(libraryMessages.privateLibrary)).toBeInTheDocument();
    expect(within(rowOf('My Books')).getByText('7')).toBeInTheDocument();
    expect(within(rowOf('My Books')).queryByRole('button')).not.toBeInTheDocument();
    expect(server.find('GET', '/api/m-kim')[0]?.query.get('organisationId')).toBe('org-1');
  });

  it('opens on its All tab, not on Close, and its count tooltips show on keyboard focus', async () => {
    fakeFetch(routes());
    const { user } = renderViewer();
    const dialog = await screen.findByRole('dialog', { name: 'Kim Park’s libraries' });
    const all = within(dialog).getByRole('tab', { name: 'All' });
    await waitFor(() => expect(all).toHaveFocus(), { timeout: 5000 });
    for (const close of within(dialog).getAllByRole('button', { name: 'Close' })) expect(close).not.toHaveFocus();
    // Shift+Tab goes back to the counts: their explanation shows without a mouse.
    await user.tab({ shift: true });
    expect(await screen.findByRole('tooltip')).toHaveTextContent('in My Books');
  });

  it('offers Visit by the teacher’s role: allowed, disabled for a student’s library, hidden for read-only', async () => {
    fakeFetch(routes());
    renderViewer();
    await screen.findByRole('table', { name: 'All libraries' });
    expect(within(rowOf('Science Projects')).getByRole('button', { name: /Visit/ })).toBeEnabled();
    expect(within(rowOf('Art Club')).getByText('Student')).toBeInTheDocument();
    expect(within(rowOf('Art Club')).getByRole('button', { name: /Visit/ })).toBeDisabled();
    expect(within(rowOf('Staff Room')).queryByRole('button', { name: /Visit/ })).not.toBeInTheDocument();
  });

  it('shows No libraries found on an empty Archived tab', async () => {
    fakeFetch(routes());
    const { user } = renderViewer();
    await screen.findByRole('table', { name: 'All libraries' });
    await user.click(screen.getByRole('tab', { name: 'Archived' }));
    expect(await screen.findByText(libraryMessages.noLibraries)).toBeInTheDocument();
  });

  it('refuses visits without visitLibraries', async () => {
    const server = fakeFetch(routes(organisationRoutes({ visitLibraries: false })));
    const { user } = renderViewer();
    await screen.findByRole('table', { name: 'All libraries' });
    await user.click(within(rowOf('Science Projects')).getByRole('button', { name: /Visit/ }));
    expect(await screen.findByText(libraryMessages.visitNotAllowed)).toBeInTheDocument();
    expect(server.requests.some((r) => r.path.endsWith('/join'))).toBe(false);
  });

  it('asks a reason the first time, joins, and opens the sign-in-with-token link to the library in a new tab', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const link = 'https://app.quire.test/library/l-sci?token=tok-1&organisationId=org-1';
    const server = fakeFetch(routes({ 'POST /api/m-kim/admins/l-sci/join': () => ({ body: { token: 'tok-1', expiresAt: '2030-01-01T00:00:00.000Z', url: link } }) }));
    const { user } = renderViewer();
    await screen.findByRole('table', { name: 'All libraries' });
    await user.click(within(rowOf('Science Projects')).getByRole('button', { name: /Visit/ }));
    const picker = await screen.findByRole('dialog', { name: 'Reason for visit' });
    await user.click(within(picker).getByRole('radio', { name: 'Check library settings' }));
    await user.click(within(picker).getByRole('button', { name: 'Visit library' }));
    // The product signs the admin in with the token it carries.
    await waitFor(() => expect(tab.location.href).toBe(link));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(server.find('POST', '/api/m-kim/admins/l-sci/join')[0]?.body).toEqual({ organisationId: 'org-1', reason: 'Check library settings' });
    open.mockRestore();
  });

  it('asks no reason for a library already joined, and shows the 403 text when the visit is refused', async () => {
    const tab = { opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const server = fakeFetch(routes({ 'POST /api/m-kim/admins/l-joined/join': () => ({ status: 403, body: { code: 'visit_forbidden', message: 'x' } }) }));
    const { user } = renderViewer();
    await screen.findByRole('table', { name: 'All libraries' });
    await user.click(within(rowOf('Year 5')).getByRole('button', { name: /Visit/ }));
    expect(await screen.findByText(libraryMessages.joinForbidden)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Reason for visit' })).not.toBeInTheDocument();
    expect(server.find('POST', '/api/m-kim/admins/l-joined/join')[0]?.body).toEqual({ organisationId: 'org-1' });
    expect(tab.close).toHaveBeenCalled();
    open.mockRestore();
  });

  it('names the 401 of the libraries and the failure of the book counts', async () => {
    fakeFetch(
      routes({
        'GET /api/m-kim': () => ({ status: 403, body: { code: 'not_authorised_user', message: 'Not authorised to access the requested user' } }),
        'GET /payments/v1/admin/organisations/org-1/members/m-kim/book-counts': () => ({ status: 500, body: { code: 'internal', message: 'boom' } }),
      }),
    );
    renderViewer();
    expect((await screen.findAllByText(libraryMessages.notAuthorisedRequestedUser)).length).toBeGreaterThan(0);
    expect(await screen.findByText(libraryMessages.bookCountFailed)).toBeInTheDocument();
  });

  it('Manage libraries hands the teacher over to the wizard', async () => {
    fakeFetch(routes());
    const { user, onManageLibraries } = renderViewer();
    await user.click(await screen.findByRole('button', { name: 'Manage libraries' }));
    expect(onManageLibraries).toHaveBeenCalledWith(expect.objectContaining({ id: 'm-kim' }));
  });
});
