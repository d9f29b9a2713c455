import { notEnoughLicensesMessage, teacherMessages } from '@quire/core';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@quire/core';
import { fakeFetch, orgAccess, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { buildLicense, buildMember } from '../../../test/fixtures.js';
import { TeachersPage } from './teachers-page.js';

const LIST = 'GET /payments/v1/admin/organisations/org-1/members/teachers';
const INACTIVE = 'GET /payments/v1/admin/organisations/org-1/members/inactive-teachers';
const ASSIGN = 'PUT /payments/v1/admin/organisations/org-1/licenses/lic-std';

// The first render of a file is slow on a busy machine.
configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

function organisation(overrides: Record<string, unknown> = {}) {
  return {
    id: 'org-1',
    isDomain: false,
    features: { orgLibraries: true },
    licenses: [buildLicense({ allocated: 4, quantity: 5 })],
    ...overrides,
  };
}

function page(members: Member[], total = members.length) {
  return { body: { members, total, page: 1, pageSize: 10 } };
}

function setup(members: Member[], routes: Record<string, FakeHandler> = {}, org = organisation(), access: 'admin' | 'library-manager' = 'admin') {
  const api = fakeFetch({ 'gql getOrganisationById': { body: org }, 'gql getOrganisationAccess': orgAccess(access), [LIST]: page(members), ...routes });
  renderAt(<TeachersPage />, '/org-1/teachers');
  return { api, user: userEvent.setup() };
}

describe('the Teachers screen', () => {
  it('asks the server for one page sorted by e-mail and shows the columns of the spec', async () => {
    const ann = buildMember({ email: 'ann@school.test', displayName: 'Ann Lee', role: 400, isAmbassador: true, badges: { calevel1: '2024-01-01', calevel2: null } });
    const bob = buildMember({ email: 'bob@school.test', displayName: '', pending: true, license: { id: 'lic-std', name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false } });
    const { api } = setup([ann, bob]);
    const table = await screen.findByRole('table', { name: 'Active teachers' });
    expect(api.callsTo(LIST)[0]?.url).toContain('sort=email&dir=asc&page=1&pageSize=10');
    const annRow = within(table).getByRole('row', { name: /ann@school\.test/ });
    expect(within(annRow).getByText('Library Manager')).toBeInTheDocument();
    expect(within(annRow).getByRole('img', { name: 'Quire Ambassador' })).toBeInTheDocument();
    expect(within(annRow).getByText('Complete')).toBeInTheDocument();
    const bobRow = within(table).getByRole('row', { name: /bob@school\.test/ });
    expect(within(bobRow).getByText('No')).toBeInTheDocument();
    expect(within(bobRow).getByText('40 books · 5 libraries')).toBeInTheDocument();
    // Ten rows or fewer: no paging controls.
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
  });

  it('blocks an assignment the licences cannot cover, in the browser, before asking the server', async () => {
    const [a, b] = [buildMember(), buildMember()];
    const { api, user } = setup([a, b]);
    await user.click(await screen.findByRole('checkbox', { name: 'Select all teachers on this page' }));
    expect(screen.getByText('2 teachers selected')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
    await user.click(screen.getByRole('option', { name: 'Assign Standard license' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(notEnoughLicensesMessage(40, 1))).toBeInTheDocument();
    expect(api.callsTo(ASSIGN)).toHaveLength(0);
  });

  it('a double click on Preview opens the dialog and leaves it open', async () => {
    const [a] = [buildMember()];
    const { user } = setup([a!], { 'gql teacherEmailPreview': { body: { subject: 'Welcome', defaultMessage: 'Hi', plain: 'Hi', recipients: 1, errors: [] } } });
    await user.click(await screen.findByRole('checkbox', { name: 'Select all teachers on this page' }));
    await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
    await user.click(screen.getByRole('option', { name: 'Send welcome email' }));
    await user.dblClick(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('dialog', { name: 'Review message details' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('dialog', { name: 'Review message details' })).toBeInTheDocument();
  });

  it('assigns once on a double click, with a key, and counts only the teachers who changed', async () => {
    const [a, b] = [buildMember(), buildMember({ license: { id: 'lic-std', name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false } })];
    const org = organisation({ licenses: [buildLicense({ allocated: 1, quantity: 5 })] });
    const { api, user } = setup([a!, b!], { [ASSIGN]: { body: { licenseId: 'lic-std', assignedMemberIds: [a!.id], allocated: 2, available: 3 } } }, org);
    await user.click(await screen.findByRole('checkbox', { name: 'Select all teachers on this page' }));
    await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
    await user.click(screen.getByRole('option', { name: 'Assign Standard license' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign license' });
    await user.dblClick(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('License assigned to 1 teacher')).toBeInTheDocument();
    expect(api.callsTo(ASSIGN)).toHaveLength(1);
    expect(api.callsTo(ASSIGN)[0]?.headers['idempotency-key']).toMatch(/.{16,}/);
  });

  it("shows the server's refusal when the licences ran out meanwhile", async () => {
    const refusal = notEnoughLicensesMessage(40, 0);
    const [a] = [buildMember()];
    const { api, user } = setup([a!], { [ASSIGN]: { status: 409, body: { code: 'not_enough_licenses', message: refusal } } });
    await user.click(await screen.findByRole('button', { name: `Actions for ${a!.email}` }));
    // The submenu by keyboard: ArrowRight opens it, Enter picks the licence.
    (await screen.findByRole('menuitem', { name: 'Assign license' })).focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Standard' })).toHaveFocus());
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Assign license' });
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(api.callsTo(ASSIGN)[0]?.body).toEqual([a!.id]);
  });

  it("switches library manager at once and puts it back with 'Error setting user role' on failure", async () => {
    const ann = buildMember({ email: 'ann@school.test', role: 600 });
    const { user } = setup([ann], { 'gql updateMembershipRole': { body: { data: null, errors: [{ message: 'nope' }] } } });
    await user.click(await screen.findByRole('button', { name: 'Actions for ann@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Assign as Library Manager' }));
    expect(await screen.findByText(teacherMessages.roleFailed)).toBeInTheDocument();
    const row = screen.getByRole('row', { name: /ann@school\.test/ });
    await waitFor(() => expect(within(row).queryByText('Library Manager')).not.toBeInTheDocument());
  });

  it('hides row actions, selection and import in read-only mode', async () => {
    setup([buildMember({ email: 'ann@school.test' })], {}, organisation(), 'library-manager');
    await screen.findByRole('table', { name: 'Active teachers' });
    expect(screen.queryByRole('button', { name: /Actions for/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import Teachers' })).not.toBeInTheDocument();
    // The whole-list export is for admins (docs/security.md): read-only mode does not offer it.
    expect(screen.queryByRole('button', { name: 'Export as CSV' })).not.toBeInTheDocument();
  });

  it('hides Import and individual licence changes in a domain organisation', async () => {
    const ann = buildMember({ email: 'ann@school.test' });
    const { user } = setup([ann], {}, organisation({ isDomain: true }));
    await user.click(await screen.findByRole('button', { name: 'Actions for ann@school.test' }));
    await screen.findByRole('menuitem', { name: 'Request Certification' });
    expect(screen.queryByRole('menuitem', { name: 'Assign license' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Remove license' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Send welcome email' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Import Teachers' })).not.toBeInTheDocument();
  });

  it('says when the organisation has no teachers, and when a search finds none', async () => {
    const { api, user } = setup([]);
    expect(await screen.findByText(teacherMessages.noTeachers)).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: 'Search teachers' }), 'Zed');
    expect(await screen.findByText(teacherMessages.notFound)).toBeInTheDocument();
    // Debounced: one request for the whole word, none per keystroke (it may go out after the text shows).
    await waitFor(() =>
      expect(api.callsTo(LIST).filter((c) => c.url.includes('search='))).toEqual([expect.objectContaining({ url: expect.stringContaining('search=Zed') })]),
    );
  });

  it('marks the table busy from the first keystroke of a search until its rows are shown', async () => {
    const ann = buildMember({ email: 'ann@school.test' });
    const bob = buildMember({ email: 'bob@school.test' });
    let answerSearch = (): void => undefined;
    const searched = new Promise<void>((resolve) => (answerSearch = resolve));
    const { user } = setup([], {
      [LIST]: async (request) => {
        if (!request.url.includes('search=')) return page([ann, bob]);
        await searched;
        return page([bob]);
      },
    });
    const table = await screen.findByRole('table', { name: 'Active teachers' });
    expect(table).not.toHaveAttribute('aria-busy', 'true');
    await user.type(screen.getByRole('searchbox', { name: 'Search teachers' }), 'bob');
    // The old rows stay on screen while the search waits and loads: assistive technology is told they are going.
    expect(screen.getByRole('table', { name: 'Active teachers' })).toHaveAttribute('aria-busy', 'true');
    expect(within(screen.getByRole('table', { name: 'Active teachers' })).getByText('ann@school.test')).toBeInTheDocument();
    answerSearch();
    await waitFor(() => expect(screen.queryByText('ann@school.test')).not.toBeInTheDocument());
    expect(screen.getByRole('table', { name: 'Active teachers' })).not.toHaveAttribute('aria-busy', 'true');
    expect(screen.getByText('bob@school.test')).toBeInTheDocument();
  });

  it('lists removed teachers with their Removed date and Mark as Active', async () => {
    const gone = buildMember({ email: 'gone@school.test', revokedAt: '2024-03-05T12:00:00.000Z' });
    const { api, user } = setup([], { [INACTIVE]: page([gone]), 'gql grantMembership': { body: { memberIds: [gone.id] } } });
    await user.click(await screen.findByRole('tab', { name: 'Inactive' }));
    const row = await screen.findByRole('row', { name: /gone@school\.test/ });
    expect(within(row).getByText('5th March 2024')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Actions for gone@school.test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Mark as Active' }));
    await waitFor(() => expect(api.callsTo('grantMembership')[0]?.body).toMatchObject({ variables: { orgId: 'org-1', memberIds: [gone.id] } }));
  });

  it('offers Retry when the list fails to load, and shows it once it loads', async () => {
    const ann = buildMember({ email: 'ann@school.test' });
    let up = false;
    const { user } = setup([], { [LIST]: () => (up ? page([ann]) : { status: 503, body: { code: 'unavailable', message: 'Try again later' } }) });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong loading the teachers');
    up = true;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('row', { name: /ann@school\.test/ })).toBeInTheDocument();
  });
});
