import { libraryMessages, teacherMessages } from '@quire/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, graphqlError, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { kim, organisationRoutes, session, targetTeachersRoute, answers } from '../test/library-fixtures.js';
import type { TeacherRef } from '../model/teacher-ref.js';
import { RemoveTeacherDialog } from './remove-teacher-dialog.js';
import { TeacherLibraryDialogs } from './teacher-library-dialogs.js';

afterEach(() => vi.unstubAllGlobals());

const canDelete: FakeHandler = () => ({ body: { canDelete: true, reasons: [], ownedLibraries: 2 } });

/** A second teacher removed together with Kim; both may be deleted. */
const lee = { ...kim, id: 'm-lee2', userId: 'u-lee2', email: 'lee2@school.test', displayName: 'Lee Two' };
const bothDeletable = (): Record<string, FakeHandler> => ({
  ...organisationRoutes(),
  'POST /api/admin-tools/v2/m-kim/users/delete-check': canDelete,
  'POST /api/admin-tools/v2/m-lee2/users/delete-check': canDelete,
});

function renderRemove(teachers: TeacherRef[]) {
  const onClose = vi.fn();
  const onDone = vi.fn();
  renderAt(<RemoveTeacherDialog teachers={teachers} onClose={onClose} onDone={onDone} />, '/', { session: session() });
  return { onClose, onDone, user: userEvent.setup() };
}

describe('Remove teacher: the teacher delete dialog', () => {
  it('archives the libraries and removes the account only after the checkbox and Permanently delete', async () => {
    const server = fakeFetch({
      ...organisationRoutes(),
      'POST /api/admin-tools/v2/m-kim/users/delete-check': canDelete,
      'POST /api/admin-tools/v2/m-kim/users/archive': () => ({ body: answers.userArchived(kim.id) }),
    });
    const { user, onDone, onClose } = renderRemove([kim]);
    await user.click(await screen.findByRole('radio', { name: /Archive and close libraries/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The warning: nothing has changed yet.
    expect(await screen.findByText(/lose access to its libraries/)).toBeInTheDocument();
    expect(server.find('POST', '/api/m-kim/admins/archive/all')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const destroy = screen.getByRole('button', { name: 'Permanently delete' });
    expect(destroy).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }));
    expect(destroy).toBeEnabled();
    await user.click(destroy);

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onDone).toHaveBeenCalledWith([kim.id]);
    const calls = server.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/')).map((r) => r.path);
    // the libraries and the account go in one call (one transaction), never half of it.
    expect(calls).toEqual(['/api/admin-tools/v2/m-kim/users/delete-check', '/api/admin-tools/v2/m-kim/users/archive']);
    expect(server.find('POST', '/api/admin-tools/v2/m-kim/users/archive')[0]?.body).toEqual({
      organisationId: 'org-1',
      organisationName: 'Hillside School',
      libraries: { action: 'archive' },
    });
  });

  it('reassigns to the chosen teacher before deleting', async () => {
    const server = fakeFetch({
      ...organisationRoutes(),
      'GET /payments/v1/admin/organisations/org-1/members/teachers': targetTeachersRoute,
      'POST /api/admin-tools/v2/m-kim/users/delete-check': canDelete,
      'POST /api/admin-tools/v2/m-kim/users/archive': () => ({ body: answers.userArchived(kim.id) }),
    });
    const { user, onClose } = renderRemove([kim]);
    await user.click(await screen.findByRole('radio', { name: /Assign libraries to a teacher/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('combobox', { name: /Teacher/ }));
    await user.click(await screen.findByRole('option', { name: 'Lee Chan (lee@school.test)' }));
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }));
    await user.click(screen.getByRole('button', { name: 'Permanently delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(server.find('POST', '/api/admin-tools/v2/m-kim/users/archive')[0]?.body).toMatchObject({ libraries: { action: 'teacher', newOwnerId: 'm-lee' } });
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('says exactly who was removed and who was not when one removal fails', async () => {
    fakeFetch({
      ...bothDeletable(),
      'POST /api/admin-tools/v2/m-kim/users/archive': () => ({ body: answers.userArchived(kim.id) }),
      'POST /api/admin-tools/v2/m-lee2/users/archive': () => ({ status: 409, body: { code: 'cannot_delete', message: 'This teacher has already been removed from the organisation' } }),
    });
    const { user, onDone } = renderRemove([kim, lee]);
    await user.click(await screen.findByRole('radio', { name: /Archive and close libraries/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await user.click(screen.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }));
    await user.click(screen.getByRole('button', { name: 'Permanently delete' }));
    const outcome = await screen.findByRole('list', { name: 'What happened' });
    expect(outcome).toHaveTextContent('kim@school.test: removed');
    expect(outcome).toHaveTextContent('lee2@school.test: not removed: This teacher has already been removed from the organisation');
    expect(onDone).toHaveBeenCalledWith([kim.id]);
  });

  it('removes the teachers it may and names those it may not, instead of refusing everything', async () => {
    const pat = { ...kim, id: 'm-pat', email: 'pat@school.test', pending: true, userId: null, displayName: '' };
    const server = fakeFetch({
      ...organisationRoutes(),
      'POST /api/admin-tools/v2/m-kim/users/delete-check': () => ({
        body: { canDelete: false, reasons: ['Only pending teachers can be removed from this organisation'], ownedLibraries: 1 },
      }),
      'POST /api/admin-tools/v2/m-pat/users/delete-check': () => ({ body: { canDelete: true, reasons: [], ownedLibraries: 0 } }),
      'gql revokeMembership': () => ({ body: { data: { revokeMembership: { memberIds: ['m-pat'] } } } }),
    });
    const { user, onDone } = renderRemove([kim, pat]);
    const refused = await screen.findByRole('list', { name: 'Teachers who cannot be removed' });
    expect(refused).toHaveTextContent('kim@school.test: Only pending teachers can be removed from this organisation');
    await user.click(screen.getByRole('button', { name: 'Remove 1 teacher' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(['m-pat']));
    expect(server.requests.find((r) => r.operation === 'revokeMembership')?.variables).toEqual({ orgId: 'org-1', memberIds: ['m-pat'] });
  });

  it("appends the server's reasons to 'Error deleting teacher' and offers nothing else", async () => {
    const server = fakeFetch({
      ...organisationRoutes(),
      'POST /api/admin-tools/v2/m-kim/users/delete-check': () => ({
        body: { canDelete: false, reasons: ['Only pending teachers can be removed from this organisation'], ownedLibraries: 0 },
      }),
    });
    renderRemove([kim]);
    const text = `${teacherMessages.deleteFailed}: Only pending teachers can be removed from this organisation`;
    expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.endsWith('/archive'))).toHaveLength(0);
  });

  it('removes pending teachers with one confirmation (revokeMembership)', async () => {
    const pending = { ...kim, id: 'm-pat', email: 'pat@school.test', pending: true, userId: null };
    const server = fakeFetch({ 'gql revokeMembership': () => ({ body: { data: { revokeMembership: { memberIds: ['m-pat'] } } } }) });
    const { user, onDone } = renderRemove([pending]);
    await user.click(await screen.findByRole('button', { name: 'Remove teacher' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(['m-pat']));
    expect(server.requests[0]?.variables).toEqual({ orgId: 'org-1', memberIds: ['m-pat'] });
  });

  it("removes a school's pending teacher in the school, from a district's list (docs/districts.md)", async () => {
    const pending = { ...kim, id: 'm-pat', email: 'pat@school.test', pending: true, userId: null };
    const server = fakeFetch({ 'gql revokeMembership': () => ({ body: { data: { revokeMembership: { memberIds: ['m-pat'] } } } }) });
    const onDone = vi.fn();
    renderAt(
      <TeacherLibraryDialogs dialog={{ kind: 'remove', teachers: [pending], organisation: { id: 'school-9', name: 'Oakwood' } }} onClose={vi.fn()} onDone={onDone} />,
      '/',
      { session: session() },
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Remove teacher' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(server.requests[0]?.variables).toEqual({ orgId: 'school-9', memberIds: ['m-pat'] });
  });

  it("shows 'Error revoking teacher memberships' with the server's message", async () => {
    const pending = { ...kim, id: 'm-pat', email: 'pat@school.test', pending: true, userId: null };
    fakeFetch({ 'gql revokeMembership': () => graphqlError('Teachers cannot be removed from a domain organisation', 'forbidden') });
    const { user } = renderRemove([pending]);
    await user.click(await screen.findByRole('button', { name: 'Remove teacher' }));
    expect(await screen.findByText(`${libraryMessages.revokeMembershipsFailed}: Teachers cannot be removed from a domain organisation`)).toBeInTheDocument();
  });

  it('says what will happen instead of offering to keep the account before Permanently delete', async () => {
    fakeFetch({
      ...organisationRoutes(),
      'GET /payments/v1/admin/organisations/org-1/members/teachers': targetTeachersRoute,
      'POST /api/admin-tools/v2/m-kim/users/delete-check': canDelete,
    });
    const { user } = renderRemove([kim]);
    const dialog = await screen.findByRole('dialog', { name: 'Remove teacher' });
    await screen.findByRole('radio', { name: /Assign libraries to a teacher/ });
    expect(dialog).not.toHaveTextContent(/keep the account/i);
    await user.click(screen.getByRole('radio', { name: /Assign libraries to a teacher/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('combobox', { name: /Teacher/ }));
    await user.click(await screen.findByRole('option', { name: 'Lee Chan (lee@school.test)' }));
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    const happens = await screen.findByRole('list', { name: 'What will happen' });
    expect(happens).toHaveTextContent('Kim Park is removed from Hillside School');
    expect(happens).toHaveTextContent('listed under Inactive');
    expect(happens).toHaveTextContent('Their libraries now belong to Lee Chan (lee@school.test)');
    expect(happens).toHaveTextContent('My Books is archived');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/cannot be undone: the libraries stay with Lee Chan \(lee@school.test\), even if Kim Park is marked as active again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Permanently delete' })).toBeDisabled();
  });

  it('speaks of several teachers’ libraries, never “2 teachers’s”, and heads the archive step as such', async () => {
    fakeFetch(bothDeletable());
    const { user } = renderRemove([kim, lee]);
    const dialog = await screen.findByRole('dialog', { name: 'Remove teacher' });
    expect(await screen.findByRole('radiogroup', { name: /What should happen to the 2 teachers’ libraries\?/ })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Archive and close libraries/ }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Archive and close libraries' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Choose who receives the libraries' })).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent('All of the 2 teachers’ libraries are archived and closed');
    expect(dialog.textContent).not.toMatch(/teachers’s/);
  });
});
