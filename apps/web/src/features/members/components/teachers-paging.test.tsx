import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '@quire/core';
import { fakeFetch, orgAccess, type FakeRequest } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { buildLicense, buildMember } from '../../../test/fixtures.js';
import { TeachersPage } from './teachers-page.js';

const LIST = 'GET /payments/v1/admin/organisations/org-1/members/teachers';
const EXPORT = 'GET /payments/v1/admin/organisations/org-1/members/teachers/export.csv';
const INACTIVE = 'GET /payments/v1/admin/organisations/org-1/members/inactive-teachers';

configure({ asyncUtilTimeout: 5000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const organisation = { id: 'org-1', isDomain: false, features: { orgLibraries: true }, licenses: [buildLicense()] };

/**
 * `total` teachers in e-mail order, answered as the server pages them: by page number, or after / before
 * an opaque cursor (here `cursor-<prefix>-<row>`), with the cursors of the page's first and last rows.
 */
function keysetList(total: number, prefix: string, revokedAt: string | null = null) {
  const everyone: Member[] = Array.from({ length: total }, (_, i) => buildMember({ email: `${prefix}${String(i).padStart(3, '0')}@school.test`, revokedAt }));
  const rowOf = (cursor: string) => Number(cursor.slice(`cursor-${prefix}-`.length));
  return (call: FakeRequest) => {
    const size = Number(call.query.get('pageSize') ?? 10);
    const page = Number(call.query.get('page') ?? 1);
    const after = call.query.get('after');
    const before = call.query.get('before');
    const start = after ? rowOf(after) + 1 : before ? Math.max(0, rowOf(before) - size) : (page - 1) * size;
    const end = before ? rowOf(before) : start + size;
    const members = everyone.slice(start, end);
    return {
      body: {
        members,
        total,
        page,
        pageSize: size,
        nextCursor: end < total ? `cursor-${prefix}-${end - 1}` : null,
        previousCursor: start > 0 ? `cursor-${prefix}-${start}` : null,
      },
    };
  };
}

function setup() {
  const api = fakeFetch({
    'gql getOrganisationById': { body: organisation },
    'gql getOrganisationAccess': orgAccess('admin'),
    [LIST]: keysetList(45, 't'),
    [INACTIVE]: keysetList(25, 'gone', '2025-01-01T00:00:00.000Z'),
    [EXPORT]: { body: 'Email\r\n' },
  });
  renderAt(<TeachersPage />, '/org-1/teachers');
  return { api, user: userEvent.setup() };
}

/** Page number and cursors of a list request, as the console sent them. */
const windowOf = (call: FakeRequest | undefined) => ({
  page: call?.query.get('page'),
  after: call?.query.get('after'),
  before: call?.query.get('before'),
  search: call?.query.get('search'),
});

const firstEmail = async (name: string) => within(await screen.findByRole('table', { name })).getAllByRole('row')[1];

describe('Teachers paging by cursor', () => {
  it("Next asks for the page after the answer's nextCursor, Previous before its previousCursor, and the page number still shows", async () => {
    const { api, user } = setup();
    await screen.findByRole('table', { name: 'Active teachers' });
    expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '1', after: null, before: null, search: null });

    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '2', after: 'cursor-t-9', before: null, search: null }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t010@school.test'));
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('11–20 of 45')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '3', after: 'cursor-t-19', before: null, search: null }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t020@school.test'));
    expect(screen.getByText('21–30 of 45')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'previous page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '2', after: null, before: 'cursor-t-20', search: null }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t010@school.test'));
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');

    // Page 1 is asked for by number, without a cursor.
    await user.click(screen.getByRole('button', { name: 'previous page' }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t000@school.test'));
    expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '1', after: null, before: null, search: null });

    // A jump to a page that is neither the next nor the previous one goes by number.
    await user.click(screen.getByRole('button', { name: 'Page 5' }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t040@school.test'));
    expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '5', after: null, before: null, search: null });
  });

  it('a search, a sort or a page size starts again at page 1 without a cursor', async () => {
    const { api, user } = setup();
    await screen.findByRole('table', { name: 'Active teachers' });
    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1)).after).toBe('cursor-t-9'));

    await user.type(screen.getByRole('searchbox', { name: 'Search teachers' }), 't0');
    await waitFor(() => expect(api.callsTo(LIST).some((c) => c.query.get('search') === 't0')).toBe(true));
    // Not one request of the new search carries the old page's cursor or number.
    for (const call of api.callsTo(LIST).filter((c) => c.query.has('search'))) {
      expect(windowOf(call)).toEqual({ page: '1', after: null, before: null, search: call.query.get('search') });
    }
    await waitFor(() => expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page'));

    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '2', after: 'cursor-t-9', before: null, search: 't0' }));
    const table = screen.getByRole('table', { name: 'Active teachers' });
    await user.click(within(within(table).getByRole('columnheader', { name: /^Email/ })).getByRole('button'));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('dir')).toBe('desc'));
    expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '1', after: null, before: null, search: 't0' });

    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(LIST).at(-1)).page).toBe('2'));
    expect(windowOf(api.callsTo(LIST).at(-1)).after).toMatch(/^cursor-t-/);
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(await screen.findByRole('option', { name: '20' }));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.query.get('pageSize')).toBe('20'));
    expect(windowOf(api.callsTo(LIST).at(-1))).toEqual({ page: '1', after: null, before: null, search: 't0' });
  });

  it('the Inactive tab pages by cursor too', async () => {
    const { api, user } = setup();
    await user.click(await screen.findByRole('tab', { name: 'Inactive' }));
    await screen.findByRole('table', { name: 'Inactive teachers' });
    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(INACTIVE).at(-1))).toEqual({ page: '2', after: 'cursor-gone-9', before: null, search: null }));
    await waitFor(async () => expect(await firstEmail('Inactive teachers')).toHaveTextContent('gone010@school.test'));
    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(() => expect(windowOf(api.callsTo(INACTIVE).at(-1))).toEqual({ page: '3', after: 'cursor-gone-19', before: null, search: null }));
    await user.click(screen.getByRole('button', { name: 'previous page' }));
    await waitFor(() => expect(windowOf(api.callsTo(INACTIVE).at(-1))).toEqual({ page: '2', after: null, before: 'cursor-gone-20', search: null }));
    await waitFor(async () => expect(await firstEmail('Inactive teachers')).toHaveTextContent('gone010@school.test'));
  });

  it('Export as CSV of the current page asks for the page shown, through the same cursor', async () => {
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:teachers');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { api, user } = setup();
    await screen.findByRole('table', { name: 'Active teachers' });
    await user.click(screen.getByRole('button', { name: 'next page' }));
    await waitFor(async () => expect(await firstEmail('Active teachers')).toHaveTextContent('t010@school.test'));
    await user.click(screen.getByRole('button', { name: 'Export as CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export as CSV' });
    expect(within(dialog).getByRole('radio', { name: 'Current page (10)' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(api.callsTo(EXPORT)).toHaveLength(1));
    const call = api.callsTo(EXPORT)[0];
    expect([call?.query.get('scope'), call?.query.get('after'), call?.query.get('page'), call?.query.get('pageSize')]).toEqual(['page', 'cursor-t-9', '2', '10']);
  });
});
