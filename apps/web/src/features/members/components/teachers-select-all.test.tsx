import { selectionChangedMessage, teacherMessages, type Member } from '@quire/core';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { fakeFetch, orgAccess, type FakeHandler, type FakeRequest } from '../../../test/fake-fetch.js';
import { buildLicense, buildMember } from '../../../test/fixtures.js';
import { TOO_MANY_FOR_TEACHER_BY_TEACHER } from '../hooks/use-teacher-dialogs.js';
import { TeachersPage } from './teachers-page.js';

const LIST = 'GET /payments/v1/admin/organisations/org-1/members/teachers';
const BULK = 'POST /payments/v1/admin/organisations/org-1/members/teachers/bulk';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => vi.unstubAllGlobals());

const organisation = {
  id: 'org-1',
  isDomain: false,
  features: { orgLibraries: true },
  licenses: [buildLicense({ allocated: 0, quantity: 500 }), buildLicense({ id: 'lic-pro', name: 'Premium', bookQuota: 1000, libraryQuota: 'UNLIMITED', allocated: 0, quantity: 10 })],
};

/**
 * A list of `total` matching teachers, answered page by page as the server would: by page number, or after a
 * nextCursor (here `after-<row>`), with the cursor of the page's last row while more follow.
 */
function listOf(total: number, pending = false) {
  const everyone: Member[] = Array.from({ length: total }, (_, i) => buildMember({ email: `t${String(i).padStart(4, '0')}@school.test`, pending }));
  return (call: FakeRequest) => {
    const page = Number(call.query.get('page') ?? 1);
    const size = Number(call.query.get('pageSize') ?? 10);
    const after = call.query.get('after');
    const start = after ? Number(after.slice('after-'.length)) + 1 : (page - 1) * size;
    const end = Math.min(total, start + size);
    const nextCursor = end < total ? `after-${end - 1}` : null;
    return { body: { members: everyone.slice(start, end), total, page, pageSize: size, nextCursor, previousCursor: null } };
  };
}

function setup(routes: Record<string, FakeHandler>) {
  const api = fakeFetch({ 'gql getOrganisationById': { body: organisation }, 'gql getOrganisationAccess': orgAccess('admin'), ...routes });
  renderAt(<TeachersPage />, '/org-1/teachers');
  return { api, user: userEvent.setup() };
}

const listUrls = (api: ReturnType<typeof fakeFetch>) => api.callsTo(LIST).map((c) => c.query);

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Ticks the page, then 'Select all n teachers', and opens the welcome e-mail's preview: the members it previews. */
async function previewWelcomeToAll(user: ReturnType<typeof userEvent.setup>, api: ReturnType<typeof fakeFetch>, total: number): Promise<string[]> {
  await screen.findByRole('table', { name: 'Active teachers' });
  await user.click(screen.getByRole('checkbox', { name: 'Select all teachers on this page' }));
  await user.click(screen.getByRole('button', { name: `Select all ${total} teachers` }));
  await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
  await user.click(await screen.findByRole('option', { name: 'Send welcome email' }));
  await user.click(screen.getByRole('button', { name: 'Preview' }));
  await screen.findByRole('dialog', { name: 'Review message details' });
  await waitFor(() => expect(api.callsTo('teacherEmailPreview')[0]?.body).toMatchObject({ variables: { members: expect.any(Array) } }));
  return (api.callsTo('teacherEmailPreview')[0]?.body as { variables: { members: string[] } }).variables.members;
}

describe('Teachers: filters and Select all n teachers', () => {
  it('filters by signed up, licence and certification on the server, and says when none match', async () => {
    const { api, user } = setup({ [LIST]: (call) => (call.url.includes('certification=') ? { body: { members: [], total: 0, page: 1, pageSize: 10 } } : listOf(3)(call)) });
    await screen.findByRole('table', { name: 'Active teachers' });
    const filters = screen.getByRole('group', { name: 'Filter teachers' });
    expect(within(filters).getByRole('combobox', { name: 'Signed up' })).toHaveValue('All');

    await choose(user, 'Signed up', 'No');
    await waitFor(() => expect(listUrls(api).at(-1)?.get('signedUp')).toBe('no'));
    expect(listUrls(api).at(-1)?.get('page')).toBe('1');
    await choose(user, 'License', 'No license');
    await waitFor(() => expect(listUrls(api).at(-1)?.get('license')).toBe('none'));
    await choose(user, 'Certification', 'In progress');
    await waitFor(() => expect(listUrls(api).at(-1)?.get('certification')).toBe('in-progress'));
    expect(listUrls(api).at(-1)?.get('signedUp')).toBe('no');
    expect(await screen.findByText(teacherMessages.notFound)).toBeInTheDocument();
    expect(screen.getByText('Review your search criteria and try again.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByRole('table', { name: 'Active teachers' });
    const last = listUrls(api).at(-1);
    expect([last?.get('signedUp'), last?.get('license'), last?.get('certification')]).toEqual([null, null, null]);
  });

  it('offers Select all n teachers once the page is ticked, shows the count before Apply, and sends the filters, not the ids', async () => {
    const { api, user } = setup({
      [LIST]: listOf(25, true),
      [BULK]: { body: { action: 'assign-license', matched: 25, changed: 24, allocated: 24, available: 476 } },
    });
    await screen.findByRole('table', { name: 'Active teachers' });
    await choose(user, 'Signed up', 'No');
    await waitFor(() => expect(listUrls(api).at(-1)?.get('signedUp')).toBe('no'));
    expect(screen.queryByRole('button', { name: /Select all 25 teachers/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select all teachers on this page' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('10 teachers selected')).toBeInTheDocument();
    expect(within(bar).getByText(/All 10 teachers on this page are selected\./)).toBeInTheDocument();
    await user.click(within(bar).getByRole('button', { name: 'Select all 25 teachers' }));
    expect(within(bar).getByText('25 teachers selected')).toBeInTheDocument();
    expect(within(bar).getByText('All 25 teachers are selected.')).toBeInTheDocument();

    // The next page's rows are ticked too.
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Select t0010@school.test' })).toBeChecked());

    await user.click(within(bar).getByRole('combobox', { name: 'Bulk Actions' }));
    await user.click(await screen.findByRole('option', { name: 'Assign Standard license' }));
    await user.click(within(bar).getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign license' });
    expect(within(dialog).getByText('Assign the Standard license to 25 teachers?')).toBeInTheDocument();
    await user.dblClick(within(dialog).getByRole('button', { name: 'Assign' }));

    expect(await screen.findByText('License assigned to 24 teachers')).toBeInTheDocument();
    expect(api.callsTo(BULK)).toHaveLength(1);
    const call = api.callsTo(BULK)[0];
    expect(call?.body).toEqual({ action: 'assign-license', licenseId: 'lic-std', selection: { filter: { signedUp: 'no' }, expectedCount: 25 } });
    expect(call?.headers['idempotency-key']).toMatch(/.{16,}/);
    // Done: the selection is cleared.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument());
  });

  it("shows the server's refusal when the matching teachers changed meanwhile", async () => {
    const refusal = selectionChangedMessage(25, 26);
    const { user } = setup({ [LIST]: listOf(25), [BULK]: { status: 409, body: { code: 'selection_changed', message: refusal, matching: 26 } } });
    await screen.findByRole('table', { name: 'Active teachers' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all teachers on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 25 teachers' }));
    await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
    await user.click(await screen.findByRole('option', { name: 'Remove license' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove license' });
    expect(within(dialog).getByText('Remove the license from 25 teachers?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it('loads every matching teacher for the e-mail, and unticking a row goes back to the page', async () => {
    const { api, user } = setup({
      [LIST]: listOf(25),
      'gql teacherEmailPreview': { body: { subject: 'Welcome', defaultMessage: 'Hi', plain: 'Hi', recipients: 25, errors: [] } },
    });
    const previewed = await previewWelcomeToAll(user, api, 25);
    expect(previewed).toHaveLength(25);
    expect(listUrls(api).some((p) => p.get('pageSize') === '100')).toBe(true);
    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('checkbox', { name: 'Select t0003@school.test' }));
    expect(screen.getByText('9 teachers selected')).toBeInTheDocument();
    expect(screen.queryByText('All 25 teachers are selected.')).not.toBeInTheDocument();
  });

  it('loads the matching teachers 100 at a time, each page after the one before (by cursor, not page number)', async () => {
    const { api, user } = setup({
      [LIST]: listOf(250),
      'gql teacherEmailPreview': { body: { subject: 'Welcome', defaultMessage: 'Hi', plain: 'Hi', recipients: 250, errors: [] } },
    });
    const previewed = await previewWelcomeToAll(user, api, 250);
    expect(new Set(previewed).size).toBe(250);
    const loads = listUrls(api).filter((p) => p.get('pageSize') === '100');
    expect(loads.map((p) => p.get('after'))).toEqual([null, 'after-99', 'after-199']);
  });

  it('over 1000 matching teachers, the teacher-by-teacher actions are shown but not offered, and say why', async () => {
    const { user } = setup({ [LIST]: listOf(1200) });
    await screen.findByRole('table', { name: 'Active teachers' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all teachers on this page' }));
    await user.click(screen.getByRole('button', { name: 'Select all 1200 teachers' }));
    expect(screen.getByText(TOO_MANY_FOR_TEACHER_BY_TEACHER)).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Bulk Actions' }));
    expect(await screen.findByRole('option', { name: 'Send welcome email' })).toHaveAttribute('data-combobox-disabled', 'true');
    expect(screen.getByRole('option', { name: 'Assign Standard license' })).not.toHaveAttribute('data-combobox-disabled');
  });
});
