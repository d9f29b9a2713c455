import { libraryMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, graphqlError } from '../../../test/fake-fetch.js';
import { buildMember } from '../../../test/fixtures.js';
import { renderAt } from '../../../test/render.js';
import { ada, kim, organisationRoutes, session, targetAdminsRoute, targetTeachersRoute, answers } from '../test/library-fixtures.js';
import { ManageLibrariesWizard } from './remove-teacher-dialog.js';
import { CHOICE_REQUIRED_TEXT } from './transfer-wizard.js';
import { MY_BOOKS_STAYS_TEXT } from '../model/transfer-choices.js';

afterEach(() => vi.unstubAllGlobals());

const baseRoutes = {
  ...organisationRoutes(),
  'GET /payments/v1/admin/organisations/org-1/members/teachers': targetTeachersRoute,
  'gql getAdmins': targetAdminsRoute,
};

function renderWizard(teacher = kim) {
  const onClose = vi.fn();
  const onDone = vi.fn();
  renderAt(<ManageLibrariesWizard teacher={teacher} onClose={onClose} onDone={onDone} />, '/', { session: session() });
  return { onClose, onDone, user: userEvent.setup() };
}

async function choose(user: ReturnType<typeof userEvent.setup>, label: RegExp) {
  await user.click(await screen.findByRole('radio', { name: label }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

describe('Manage Teacher Libraries wizard', () => {
  it('needs a choice before Next, and a target before Assign', async () => {
    fakeFetch(baseRoutes);
    const { user } = renderWizard();
    expect(await screen.findByRole('dialog', { name: 'Manage Teacher Libraries' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(CHOICE_REQUIRED_TEXT)).toBeInTheDocument();

    await choose(user, /assign libraries to a teacher/);
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    expect(screen.getByText('Please choose a teacher')).toBeInTheDocument();
  });

  it('says that My Books is private and never handed over', async () => {
    fakeFetch(baseRoutes);
    renderWizard();
    expect(await screen.findByText(MY_BOOKS_STAYS_TEXT('Kim Park', 'manage'))).toBeInTheDocument();
    expect(MY_BOOKS_STAYS_TEXT('Kim Park', 'delete')).toMatch(/archived with the account/);
  });

  it('offers neither the teacher themselves nor pending teachers as the target', async () => {
    fakeFetch(baseRoutes);
    const { user } = renderWizard();
    await choose(user, /assign libraries to a teacher/);
    await user.click(screen.getByRole('combobox', { name: /Teacher/ }));
    const listbox = await screen.findByRole('listbox');
    await within(listbox).findByRole('option', { name: 'Lee Chan (lee@school.test)' });
    const names = within(listbox).getAllByRole('option').map((o) => o.textContent);
    expect(names).toEqual(['Lee Chan (lee@school.test)', 'sam@school.test']);
  });

  it('asks the server for signed-up teachers only, and says to type to search when there are more', async () => {
    const many = Array.from({ length: 20 }, (_, i) => buildMember({ id: `m-${i}`, email: `t${i}@school.test`, displayName: `Teacher ${i}`, pending: false }));
    const server = fakeFetch({ ...baseRoutes, 'GET /payments/v1/admin/organisations/org-1/members/teachers': () => ({ body: { members: many, total: 200 } }) });
    const { user } = renderWizard();
    await choose(user, /assign libraries to a teacher/);
    expect(await screen.findByText('Showing 20 of 200 teachers: type to search')).toBeInTheDocument();
    const request = server.find('GET', '/payments/v1/admin/organisations/org-1/members/teachers')[0];
    expect(request?.query.get('signedUp')).toBe('yes');
  });

  it('assigns to a teacher, shows Transfer in progress, then revokes the licence on request', async () => {
    let release: () => void = () => undefined;
    const server = fakeFetch({
      ...baseRoutes,
      'PUT /api/m-kim/admins/owner/all/m-lee/teacher': () => new Promise((resolve) => (release = () => resolve({ body: answers.reassigned(['l1']) }))),
      'gql removeLicenses': () => ({ body: { data: { removeLicenses: { memberIds: [kim.id] } } } }),
    });
    const { user, onDone } = renderWizard();
    await choose(user, /assign libraries to a teacher/);
    await user.click(screen.getByRole('combobox', { name: /Teacher/ }));
    await user.click(await screen.findByRole('option', { name: 'Lee Chan (lee@school.test)' }));
    await user.click(screen.getByRole('button', { name: 'Assign' }));

    expect(await screen.findByRole('status')).toHaveTextContent(libraryMessages.transferInProgress);
    release();
    const dialog = await screen.findByRole('dialog', { name: 'Manage License' });
    expect(server.find('PUT', '/api/m-kim/admins/owner/all/m-lee/teacher')[0]?.query.get('organisationId')).toBe('org-1');
    expect(onDone).toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Revoke premium license' }));
    expect(await screen.findByText('Kim Park’s account has been downgraded to the free plan.')).toBeInTheDocument();
    expect(server.requests.find((r) => r.operation === 'removeLicenses')?.variables).toEqual({ orgId: 'org-1', memberIds: [kim.id] });
  });

  it('keeping the licence says it stays active and changes nothing', async () => {
    const server = fakeFetch({ ...baseRoutes, 'POST /api/m-kim/admins/archive/all': () => ({ body: answers.librariesArchived([]) }) });
    const { user } = renderWizard();
    await choose(user, /Archive and close libraries/);
    expect(screen.getByText(/Published books stay active but become uneditable/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Keep License' }));
    expect(screen.getByText('Kim Park’s license stays active.')).toBeInTheDocument();
    expect(server.find('POST', '/api/m-kim/admins/archive/all')[0]?.body).toEqual({ organisationId: 'org-1' });
    expect(server.requests.some((r) => r.operation === 'removeLicenses')).toBe(false);
  });

  it('skips Manage License when the managed teacher is the acting admin', async () => {
    fakeFetch({ ...baseRoutes, 'POST /api/m-ada/admins/archive/all': () => ({ body: answers.librariesArchived([]) }) });
    const { user, onClose } = renderWizard(ada);
    await choose(user, /Archive and close libraries/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByRole('dialog', { name: 'Manage License' })).not.toBeInTheDocument();
  });

  it('lists admins by their teacher name, never the teacher themselves, and assigns by e-mail', async () => {
    const server = fakeFetch({
      ...baseRoutes,
      'PUT /api/m-kim/admins/owner/all/it%40school.test/admin': () => ({ body: answers.reassigned([], { memberId: 'm-it', email: 'it@school.test' }) }),
    });
    const { user } = renderWizard();
    await choose(user, /assign libraries to an admin/);
    await user.click(screen.getByRole('combobox', { name: /Admin/ }));
    const listbox = await screen.findByRole('listbox');
    await within(listbox).findByRole('option', { name: 'Ada Lovelace (ada@school.test)' });
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['Ada Lovelace (ada@school.test)', 'it@school.test']);
    await user.click(within(listbox).getByRole('option', { name: 'it@school.test' }));
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    await screen.findByRole('dialog', { name: 'Manage License' });
    expect(server.find('PUT', '/api/m-kim/admins/owner/all/it%40school.test/admin')).toHaveLength(1);
  });

  it('shows the 401 text when reassigning is not authorised, and stays on the target step', async () => {
    fakeFetch({
      ...baseRoutes,
      'PUT /api/m-kim/admins/owner/all/m-lee/teacher': () => ({ status: 403, body: { code: 'not_authorised_user', message: 'Not authorised to access the requested user' } }),
    });
    const { user } = renderWizard();
    await choose(user, /assign libraries to a teacher/);
    await user.click(screen.getByRole('combobox', { name: /Teacher/ }));
    await user.click(await screen.findByRole('option', { name: 'Lee Chan (lee@school.test)' }));
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    const dialog = screen.getByRole('dialog', { name: 'Manage Teacher Libraries' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(libraryMessages.notAuthorisedUser);
    expect(screen.getByRole('button', { name: 'Assign' })).toBeInTheDocument();
  });

  it('shows the server reason after the catalogue text when the licence cannot be revoked', async () => {
    fakeFetch({
      ...baseRoutes,
      'POST /api/m-kim/admins/archive/all': () => ({ body: answers.librariesArchived([]) }),
      'gql removeLicenses': () => graphqlError('Licenses are assigned to the whole domain', 'domain_organisation'),
    });
    const { user } = renderWizard();
    await choose(user, /Archive and close libraries/);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke premium license' }));
    expect(await screen.findByText('Licenses are assigned to the whole domain')).toBeInTheDocument();
  });
});
