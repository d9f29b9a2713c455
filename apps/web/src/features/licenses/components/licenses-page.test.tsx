import { organisationMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, orgAccess, type FakeAnswer } from '../../../test/fake-fetch.js';
import { buildSession, renderAt } from '../../../test/render.js';
import { LicensesPage } from './licenses-page.js';

afterEach(() => vi.unstubAllGlobals());

/** The dashboard's organisation, and Ada's access to it (an admin unless told otherwise). */
function serve(answer: FakeAnswer | (() => Promise<FakeAnswer>), access: 'admin' | 'library-manager' = 'admin') {
  return fakeFetch({ 'gql getOrganisationById': answer, 'gql getOrganisationAccess': orgAccess(access) });
}

function organisation(overrides: Record<string, unknown> = {}) {
  return {
    id: 'org-1',
    name: 'Hillside School',
    isDomain: false,
    licenses: [
      { id: 'l1', name: 'Premium', allocated: 7, quantity: 10, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: false },
      { id: 'l2', name: 'Standard', allocated: 12, quantity: 10, bookQuota: 40, libraryQuota: 5, applyToAll: false },
    ],
    ...overrides,
  };
}

describe('the licence dashboard', () => {
  it('lists each licence with assigned, available and total purchased', async () => {
    serve({ body: organisation() });
    renderAt(<LicensesPage />, '/org-1');
    expect(screen.getByRole('heading', { level: 1, name: 'Licenses' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Licenses' });
    const premium = within(table).getByRole('row', { name: /Premium/ });
    expect(within(premium).getAllByRole('cell').map((c) => c.textContent)).toEqual(['7', '3', '10']);
    expect(within(premium).getByText('1,000 books')).toBeInTheDocument();
    // Over-allocated: the real figure, flagged, rather than a reassuring 0.
    const standard = within(table).getByRole('row', { name: /Standard/ });
    expect(within(standard).getAllByRole('cell').map((c) => c.textContent)).toEqual(['12', '-2Over-allocated by 2', '10']);
    expect(within(standard).getByText('200 books')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', 'mailto:sales@provider.test');
    expect(screen.getByText('Need more licenses? Contact us for a quote')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Teachers' })).toHaveAttribute('href', '/org-1/teachers');
    expect(screen.queryByRole('button', { name: 'Switch organisation' })).not.toBeInTheDocument();
  });

  it('groups the digits of large numbers (1,234,567), the over-allocation included', async () => {
    serve({
      body: organisation({
        licenses: [
          { id: 'l1', name: 'State', allocated: 1234567, quantity: 2500000, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: false },
          { id: 'l2', name: 'Pilot', allocated: 12000, quantity: 10000, bookQuota: 40, libraryQuota: 500, applyToAll: false },
        ],
      }),
    });
    renderAt(<LicensesPage />, '/org-1');
    const table = await screen.findByRole('table', { name: 'Licenses' });
    const state = within(table).getByRole('row', { name: /State/ });
    expect(within(state).getAllByRole('cell').map((c) => c.textContent)).toEqual(['1,234,567', '1,265,433', '2,500,000']);
    expect(within(state).getByText('1,000 books')).toBeInTheDocument();
    const pilot = within(table).getByRole('row', { name: /Pilot/ });
    expect(within(pilot).getAllByRole('cell').map((c) => c.textContent)).toEqual(['12,000', '-2,000Over-allocated by 2,000', '10,000']);
    expect(within(pilot).getByText('20,000 books')).toBeInTheDocument();
  });

  it('shows only apply-to-all licences in a domain organisation', async () => {
    const domain = organisation({
      isDomain: true,
      licenses: [
        { id: 'l1', name: 'District Premium', allocated: 70, quantity: 100, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: true },
        { id: 'l2', name: 'Old seats', allocated: 0, quantity: 5, bookQuota: 40, libraryQuota: 5, applyToAll: false },
      ],
    });
    serve({ body: domain });
    renderAt(<LicensesPage />, '/org-1');
    expect(await screen.findByRole('row', { name: /District Premium/ })).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Old seats/ })).not.toBeInTheDocument();
  });

  it('says when there are no licences, and offers Switch organisation with several organisations', async () => {
    serve({ body: organisation({ licenses: [] }) });
    const session = buildSession({ organisations: [{ id: 'org-1', name: 'Hillside School' }, { id: 'org-2', name: 'Valley School' }] });
    renderAt(<LicensesPage />, '/org-1', { session });
    expect(await screen.findByText(organisationMessages.noLicenses)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch organisation' })).toBeInTheDocument();
  });

  it('shows a spinner while loading, then the error text when loading fails', async () => {
    let fail: (answer: FakeAnswer) => void = () => undefined;
    serve(() => new Promise<FakeAnswer>((resolve) => (fail = resolve)));
    renderAt(<LicensesPage />, '/org-1');
    expect(screen.getByLabelText('Loading licenses')).toBeInTheDocument();
    fail({ body: { errors: [{ message: 'nope' }] } });
    expect(await screen.findByText(organisationMessages.licensesLoadFailed)).toBeInTheDocument();
  });

  it('lets only admins edit the name', async () => {
    serve({ body: organisation() }, 'library-manager');
    renderAt(<LicensesPage />, '/org-1');
    await screen.findByRole('table', { name: 'Licenses' });
    expect(screen.getByRole('textbox', { name: 'Organisation name' })).toHaveAttribute('readonly');
  });

  it('offers Retry when the licences fail to load, and shows them once they load', async () => {
    let failing = true;
    serve(async () => (failing ? { body: { errors: [{ message: 'nope' }] } } : { body: organisation() }));
    renderAt(<LicensesPage />, '/org-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(organisationMessages.licensesLoadFailed);
    failing = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Licenses' })).toBeInTheDocument();
  });

  describe('across a district', () => {
    const district = () =>
      organisation({
        name: 'Riverside District',
        licenses: [
          {
            id: 'd1', name: 'District Premium', allocated: 55, quantity: 60, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: false, allocatedBy: null,
            allocations: [
              { organisationId: 'oak', organisationName: 'Oakwood School', seats: 40, assigned: 38 },
              { organisationId: 'willow', organisationName: 'Willow School', seats: 12, assigned: 12 },
            ],
          },
        ],
      });
    const allocationsAnswer = (oakSeats: number) => ({
      licenseId: 'd1', name: 'District Premium', quantity: 60, assignedHere: 3, allocatedToSchools: oakSeats + 12, available: 60 - 3 - oakSeats - 12,
      allocations: [
        { organisationId: 'oak', organisationName: 'Oakwood School', seats: oakSeats, assigned: 38 },
        { organisationId: 'willow', organisationName: 'Willow School', seats: 12, assigned: 12 },
      ],
    });

    it("shows a school its share of a district licence, and whose it is", async () => {
      const share = { id: 's1', name: 'District Premium', allocated: 38, quantity: 40, bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: false, allocatedBy: { organisationId: 'd', organisationName: 'Riverside District', licenseId: 'd1' }, allocations: [] };
      serve({ body: organisation({ licenses: [share] }) });
      renderAt(<LicensesPage />, '/org-1');
      const row = await screen.findByRole('row', { name: /District Premium/ });
      expect(within(row).getByText('38 of 40 allocated by Riverside District used')).toBeInTheDocument();
      expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['38', '2', '40']);
      expect(screen.queryByRole('heading', { name: 'Allocated to schools' })).not.toBeInTheDocument();
    });

    it("shows the district each licence's total, allocated per school and assigned, and changes an allocation from the keyboard", async () => {
      const requests: Array<{ seats: unknown; key: string | undefined }> = [];
      const network = fakeFetch({
        'gql getOrganisationById': { body: district() },
        'gql getOrganisationAccess': orgAccess('admin'),
        'PUT /payments/v1/admin/organisations/:orgId/licenses/:licenseId/allocations/:schoolId': (request) => {
          const { seats } = request.body as { seats: number };
          requests.push({ seats, key: request.headers['idempotency-key'] });
          if (seats > 45) return { status: 409, body: { code: 'allocation_exceeds_license', message: 'Riverside District holds 60 seats of District Premium and 15 of them are assigned or allocated to other schools, so at most 45 can be allocated to Oakwood School.' } };
          return { body: allocationsAnswer(seats) };
        },
      });
      renderAt(<LicensesPage />, '/org-1');
      const section = await screen.findByRole('region', { name: 'Allocated to schools' });
      expect(within(section).getByText(/60 purchased · 52 allocated to schools · 3 assigned at the district · 5 not allocated/)).toBeInTheDocument();
      const table = within(section).getByRole('table', { name: 'District Premium' });
      const oak = within(table).getByRole('row', { name: /Oakwood School/ });
      expect(within(oak).getAllByRole('cell').map((c) => c.textContent)).toEqual(['40', '38', 'Change']);

      const user = userEvent.setup();
      const change = within(oak).getByRole('button', { name: 'Change allocation of District Premium for Oakwood School' });
      change.focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Change allocation' });
      const field = within(dialog).getByRole('textbox', { name: /Seats for Oakwood School/ });
      await waitFor(() => expect(field).toHaveFocus());
      await user.keyboard('{Control>}a{/Control}50{Enter}');
      expect(await within(dialog).findByText(/so at most 45 can be allocated to Oakwood School/)).toBeInTheDocument();
      await user.keyboard('{Control>}a{/Control}45{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(requests.map((r) => r.seats)).toEqual([50, 45]);
      expect(requests.every((r) => r.key)).toBe(true);
      await waitFor(() => expect(change).toHaveFocus());
      expect(network.requests.filter((r) => r.operation === 'getOrganisationById').length).toBeGreaterThan(1);
    });

    it('shows a district licence of a domain district, without Change for a library manager', async () => {
      serve({ body: { ...district(), isDomain: true } }, 'library-manager');
      renderAt(<LicensesPage />, '/org-1');
      const section = await screen.findByRole('region', { name: 'Allocated to schools' });
      expect(within(section).getByRole('row', { name: /Willow School/ })).toBeInTheDocument();
      expect(within(section).queryByRole('button')).not.toBeInTheDocument();
      expect(screen.getByRole('table', { name: 'Licenses' })).toBeInTheDocument();
    });
  });
});
