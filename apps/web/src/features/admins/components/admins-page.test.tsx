import { adminMessages, authMessages, providerStaffAdminMessage, validationMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, graphqlError, orgAccess, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { AdminsPage } from './admins-page.js';

afterEach(() => vi.unstubAllGlobals());

const admin = (email: string, isYou = false) => ({
  email,
  organisationId: 'org-1',
  organisationName: 'Hillside School',
  userId: null,
  memberId: null,
  displayName: null,
  isYou,
  twoStep: 'off' as 'on' | 'off',
});

/** getAdmins over a list of e-mails, paged and sorted like the server. */
function adminsRoute(emails: string[]): FakeHandler {
  return ({ variables }) => {
    const dir = variables.dir === 'desc' ? -1 : 1;
    const sorted = [...emails].sort((a, b) => a.localeCompare(b) * dir);
    const page = Number(variables.page ?? 1);
    const pageSize = Number(variables.pageSize ?? 10);
    const admins = sorted.slice((page - 1) * pageSize, page * pageSize).map((e) => admin(e, e === 'ada@school.test'));
    return { body: { data: { getAdmins: { admins, total: emails.length, page, pageSize } } } };
  };
}

/** Ada is an admin when the list names her (the server decides it: useOrgAccess), else a library manager. */
function routes(emails: string[], extra: Record<string, FakeHandler> = {}) {
  return { 'gql getAdmins': adminsRoute(emails), 'gql getOrganisationAccess': orgAccess(emails.includes('ada@school.test') ? 'admin' : 'library-manager'), ...extra };
}

const renderPage = () => {
  renderAt(<AdminsPage />);
  return userEvent.setup();
};

describe('the Admin screen', () => {
  it('lists admins by e-mail ascending with their organisation, and pages only above 10 rows', async () => {
    fakeFetch(routes(['zed@school.test', 'ada@school.test', 'bob@school.test']));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Admins' });
    const emails = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[1]?.textContent);
    expect(emails).toEqual(['ada@school.testYou', 'bob@school.test', 'zed@school.test']);
    expect(within(table).getAllByText('Hillside School')).toHaveLength(3);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });

  it('shows paging controls with more than 10 admins', async () => {
    const many = Array.from({ length: 12 }, (_, i) => `admin${String(i).padStart(2, '0')}@school.test`);
    fakeFetch(routes([...many, 'ada@school.test']));
    const user = renderPage();
    await screen.findByRole('table', { name: 'Admins' });
    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Admins' })).getAllByRole('row')).toHaveLength(4));
  });

  it("says 'There was a problem loading admins' when the list fails", async () => {
    fakeFetch({ 'gql getAdmins': () => graphqlError('boom', 'internal_error', 500), 'gql getOrganisationAccess': orgAccess('library-manager') });
    renderPage();
    expect((await screen.findAllByText(adminMessages.loadFailed)).length).toBeGreaterThan(0);
  });

  it('offers Retry when the list fails to load', async () => {
    let calls = 0;
    const list = adminsRoute(['ada@school.test']);
    fakeFetch(routes(['ada@school.test'], { 'gql getAdmins': (request) => (++calls === 1 ? graphqlError('boom', 'internal_error', 500) : typeof list === 'function' ? list(request) : list) }));
    const user = renderPage();
    const alert = await screen.findByRole('alert', { name: adminMessages.loadFailed });
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Admins' })).toBeInTheDocument();
  });

  it('checks the addresses before adding: required, valid, never the provider’s own domain', async () => {
    const server = fakeFetch(routes(['ada@school.test'], { 'gql importAdmins': () => ({ body: { data: { importAdmins: { added: ['new@school.test'], existing: [] } } } }) }));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add admins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add admins' });
    const field = within(dialog).getByRole('textbox', { name: /Email addresses/ });
    const submit = within(dialog).getByRole('button', { name: 'Add admins' });

    await user.click(submit);
    expect(within(dialog).getByText(validationMessages.emailRequired)).toBeInTheDocument();
    await user.type(field, 'not-an-email');
    expect(within(dialog).getByText(`${validationMessages.emailInvalid}: not-an-email`)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'new@school.test, Staff@PROVIDER.test');
    expect(within(dialog).getByText(providerStaffAdminMessage('Quire'))).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'x@sub.provider.test');
    expect(within(dialog).getByText(providerStaffAdminMessage('Quire'))).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'new@school.test; t@Schools.District.test');
    expect(within(dialog).getByText(authMessages.districtSso)).toBeInTheDocument();
    expect(server.requests.some((r) => r.operation === 'importAdmins')).toBe(false);

    await user.clear(field);
    await user.type(field, ' New@School.test ');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add admins' })).not.toBeInTheDocument());
    expect(server.requests.find((r) => r.operation === 'importAdmins')?.variables).toEqual({ orgId: 'org-1', emails: ['new@school.test'] });
  });

  it("shows the server's refusal beside the field with 'error adding admin to org'", async () => {
    fakeFetch(routes(['ada@school.test'], { 'gql importAdmins': () => graphqlError('Quire users can’t be added as admins', 'provider_email') }));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add admins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add admins' });
    await user.type(within(dialog).getByRole('textbox', { name: /Email addresses/ }), 'x@school.test');
    await user.click(within(dialog).getByRole('button', { name: 'Add admins' }));
    expect(await screen.findByText(adminMessages.addFailed)).toBeInTheDocument();
    expect(within(dialog).getByText('Quire users can’t be added as admins')).toBeInTheDocument();
  });

  it("shows each admin's 2-step verification, and resets another admin's after a confirmation", async () => {
    const withTwoStep: FakeHandler = () => ({
      body: {
        data: {
          getAdmins: {
            admins: [
              { ...admin('ada@school.test', true), userId: 'u-ada', twoStep: 'on' },
              { ...admin('bob@school.test'), userId: 'u-bob', twoStep: 'on' },
              { ...admin('cy@school.test'), userId: 'u-cy' },
            ],
            total: 3,
            page: 1,
            pageSize: 10,
          },
        },
      },
    });
    const server = fakeFetch({
      ...routes(['ada@school.test']),
      'gql getAdmins': withTwoStep,
      'POST /api/organisations/org-1/admins/u-bob/two-step/reset': () => ({ status: 200, body: { enabled: false } }),
    });
    const user = renderPage();
    const table = await screen.findByRole('table', { name: 'Admins' });
    expect(within(table).getByRole('columnheader', { name: '2-step' })).toBeInTheDocument();
    const rowOf = (email: string) => within(table).getByText(email).closest('tr') as HTMLElement;
    expect(within(rowOf('bob@school.test')).getByText('On')).toBeInTheDocument();
    expect(within(rowOf('cy@school.test')).getByText('Off')).toBeInTheDocument();
    // Not for oneself (that is the Security page), nor for an admin with nothing to reset.
    await user.click(screen.getByRole('button', { name: 'Actions for ada@school.test' }));
    expect(await screen.findByRole('menuitem', { name: 'Remove admin' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Reset 2-step verification' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    const actions = screen.getByRole('button', { name: 'Actions for bob@school.test' });
    await user.click(actions);
    await user.click(await screen.findByRole('menuitem', { name: 'Reset 2-step verification' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset 2-step verification' });
    expect(within(dialog).getByText('Reset 2-step verification for bob@school.test?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset 2-step verification' })).not.toBeInTheDocument());
    expect(server.requests.filter((r) => r.path.endsWith('/two-step/reset'))).toHaveLength(1);
    expect(await screen.findByText('2-step verification reset for bob@school.test')).toBeInTheDocument();
    // Focus is back on the row's menu button (drawn again by the list's reload).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Actions for bob@school.test' })).toHaveFocus());
  });

  it("shows the server's reason when the last admin cannot be removed", async () => {
    const reason = "An organisation needs at least one admin of its own, so the last admin can't be removed. Add another admin first.";
    fakeFetch(routes(['ada@school.test'], { 'gql deleteAdmins': () => graphqlError(reason, 'last_admin', 409) }));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for ada@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admin' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove admin' }));
    expect(await screen.findByText(reason)).toBeInTheDocument();
  });

  it('marks provider-staff admins and says, before removing one, that the organisation cannot add them back', async () => {
    fakeFetch(routes(['ada@school.test', 'help@Provider.test'], { 'gql deleteAdmins': ({ variables }) => ({ body: { data: { deleteAdmins: { removed: variables.emails } } } }) }));
    const user = renderPage();
    const table = await screen.findByRole('table', { name: 'Admins' });
    const staffRow = within(table).getByText('help@Provider.test').closest('tr') as HTMLElement;
    expect(within(staffRow).getByText('Quire staff')).toBeInTheDocument();
    const adaRow = within(table).getByText('ada@school.test').closest('tr') as HTMLElement;
    expect(within(adaRow).queryByText('Quire staff')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions for help@Provider.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admin' });
    expect(within(dialog).getByText('Quire staff support your organisation. Once removed, only Quire can make them an admin again.')).toBeInTheDocument();
  });

  it('removes the selected admins in bulk', async () => {
    const server = fakeFetch(
      routes(['ada@school.test', 'bob@school.test', 'cy@school.test'], {
        'gql deleteAdmins': ({ variables }) => ({ body: { data: { deleteAdmins: { removed: variables.emails } } } }),
      }),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('checkbox', { name: 'Select bob@school.test' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select cy@school.test' }));
    expect(screen.getByText('2 admins selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove admins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admins' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove admins' }));
    await waitFor(() => expect(server.requests.find((r) => r.operation === 'deleteAdmins')?.variables).toEqual({ orgId: 'org-1', emails: ['bob@school.test', 'cy@school.test'] }));
  });

  it('adds once on a double click, with an idempotency key, and the button is busy meanwhile', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const server = fakeFetch(
      routes(['ada@school.test'], { 'gql importAdmins': () => new Promise((resolve) => (answer = resolve)) }),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add admins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add admins' });
    await user.type(within(dialog).getByRole('textbox', { name: /Email addresses/ }), 'new@school.test');
    const submit = within(dialog).getByRole('button', { name: 'Add admins' });
    await user.dblClick(submit);
    await waitFor(() => expect(submit).toHaveAttribute('data-loading', 'true'));
    answer({ body: { data: { importAdmins: { added: ['new@school.test'], existing: [] } } } });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add admins' })).not.toBeInTheDocument());
    const calls = server.requests.filter((r) => r.operation === 'importAdmins');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers['idempotency-key']).toMatch(/.{16,}/);
  });

  it('removes once on a double click, with an idempotency key', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const server = fakeFetch(routes(['ada@school.test', 'bob@school.test'], { 'gql deleteAdmins': () => new Promise((resolve) => (answer = resolve)) }));
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Actions for bob@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove admin' });
    const confirm = within(dialog).getByRole('button', { name: 'Remove admin' });
    await user.dblClick(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('data-loading', 'true'));
    answer({ body: { data: { deleteAdmins: { removed: ['bob@school.test'] } } } });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove admin' })).not.toBeInTheDocument());
    const calls = server.requests.filter((r) => r.operation === 'deleteAdmins');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers['idempotency-key']).toMatch(/.{16,}/);
  });

  it("offers no changes to someone who is not an admin (a library manager)", async () => {
    fakeFetch({ 'gql getAdmins': adminsRoute(['zed@school.test']), 'gql getOrganisationAccess': orgAccess('library-manager') });
    renderPage();
    await screen.findByRole('table', { name: 'Admins' });
    expect(screen.queryByRole('button', { name: 'Add admins' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
  });

  it("marks a district's admins on a school's page and offers no removal for them (docs/districts.md)", async () => {
    const inherited = { ...admin('chief@district.test'), organisationId: 'district-1', organisationName: 'Riverside District', inherited: true };
    fakeFetch({
      'gql getAdmins': { body: { data: { getAdmins: { admins: [admin('ada@school.test', true), inherited], total: 2, page: 1, pageSize: 10 } } } },
      'gql getOrganisationAccess': orgAccess('admin'),
    });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Admins' });
    const row = within(table).getByText('chief@district.test').closest('tr')!;
    expect(within(row).getByText('District admin')).toBeInTheDocument();
    expect(within(row).getByText('Riverside District')).toBeInTheDocument();
    expect(within(row).getByText('Set at Riverside District')).toBeInTheDocument();
    expect(within(row).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    // The school's own admin keeps both.
    const own = within(table).getByText('ada@school.test').closest('tr')!;
    expect(within(own).getByRole('checkbox')).toBeInTheDocument();
  });
});
