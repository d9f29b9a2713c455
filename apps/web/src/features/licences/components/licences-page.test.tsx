import { organisationMessages } from '@quire/core';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildSession, renderAt } from '../../../test/render.js';
import { LicencesPage } from './licences-page.js';

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const answer = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function organisation(overrides: Record<string, unknown> = {}) {
  return {
    id: 'org-1',
    name: 'Hillside School',
    isDomain: false,
    admins: [{ email: 'ada@school.test' }],
    licenses: [
      { id: 'l1', name: 'Premium', allocated: 7, quantity: 10, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: false },
      { id: 'l2', name: 'Standard', allocated: 12, quantity: 10, bookQuota: 40, libraryQuota: 5, applyToAll: false },
    ],
    ...overrides,
  };
}

describe('the licence dashboard', { timeout: 15_000 }, () => {
  it('lists each licence with assigned, available and total purchased', async () => {
    fetchMock.mockResolvedValue(answer({ data: { getOrganisationById: organisation() } }));
    renderAt(<LicencesPage />, '/org-1');
    expect(screen.getByRole('heading', { level: 1, name: 'Licenses' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Licenses' });
    const premium = within(table).getByRole('row', { name: /Premium/ });
    expect(within(premium).getAllByRole('cell').map((c) => c.textContent)).toEqual(['7', '3', '10']);
    expect(within(premium).getByText('1000 books')).toBeInTheDocument();
    // Over-allocated (issue 15): the real figure, flagged, rather than a reassuring 0.
    const standard = within(table).getByRole('row', { name: /Standard/ });
    expect(within(standard).getAllByRole('cell').map((c) => c.textContent)).toEqual(['12', '-2Over-allocated by 2', '10']);
    expect(within(standard).getByText('200 books')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', 'mailto:sales@provider.test');
    expect(screen.getByText('Need more licenses? Contact us for a quote')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Teachers' })).toHaveAttribute('href', '/org-1/teachers');
    expect(screen.queryByRole('button', { name: 'Switch organisation' })).not.toBeInTheDocument();
  });

  it('shows only apply-to-all licences in a domain organisation', async () => {
    const domain = organisation({
      isDomain: true,
      licenses: [
        { id: 'l1', name: 'District Premium', allocated: 70, quantity: 100, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: true },
        { id: 'l2', name: 'Old seats', allocated: 0, quantity: 5, bookQuota: 40, libraryQuota: 5, applyToAll: false },
      ],
    });
    fetchMock.mockResolvedValue(answer({ data: { getOrganisationById: domain } }));
    renderAt(<LicencesPage />, '/org-1');
    expect(await screen.findByRole('row', { name: /District Premium/ })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Old seats/ })).not.toBeInTheDocument();
  });

  it('says when there are no licences, and offers Switch organisation with several organisations', async () => {
    fetchMock.mockResolvedValue(answer({ data: { getOrganisationById: organisation({ licenses: [] }) } }));
    const session = buildSession({ organisations: [{ id: 'org-1', name: 'Hillside School' }, { id: 'org-2', name: 'Valley School' }] });
    renderAt(<LicencesPage />, '/org-1', { session });
    expect(await screen.findByText(organisationMessages.noLicenses)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch organisation' })).toBeInTheDocument();
  });

  it('shows a spinner while loading, then the error text when loading fails', async () => {
    let fail: (r: Response) => void = () => undefined;
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (fail = resolve)));
    renderAt(<LicencesPage />, '/org-1');
    expect(screen.getByLabelText('Loading licenses')).toBeInTheDocument();
    fail(answer({ errors: [{ message: 'nope' }] }));
    expect(await screen.findByText(organisationMessages.licensesLoadFailed)).toBeInTheDocument();
  });

  it('lets only admins edit the name', async () => {
    fetchMock.mockResolvedValue(answer({ data: { getOrganisationById: organisation({ admins: [{ email: 'someone@school.test' }] }) } }));
    renderAt(<LicencesPage />, '/org-1');
    await screen.findByRole('table', { name: 'Licenses' });
    expect(screen.getByRole('textbox', { name: 'Organisation name' })).toHaveAttribute('readonly');
  });

  it('offers Retry when the licences fail to load, and shows them once they load (issue 15)', async () => {
    fetchMock.mockResolvedValueOnce(answer({ errors: [{ message: 'nope' }] }));
    renderAt(<LicencesPage />, '/org-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(organisationMessages.licensesLoadFailed);
    fetchMock.mockResolvedValue(answer({ data: { getOrganisationById: organisation() } }));
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Licenses' })).toBeInTheDocument();
  });
});
