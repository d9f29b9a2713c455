import { organisationMessages } from '@quire/core';
import { screen, within } from '@testing-library/react';
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

describe('the licence dashboard', { timeout: 15_000 }, () => {
  it('lists each licence with assigned, available and total purchased', async () => {
    serve({ body: organisation() });
    renderAt(<LicensesPage />, '/org-1');
    expect(screen.getByRole('heading', { level: 1, name: 'Licenses' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Licenses' });
    const premium = within(table).getByRole('row', { name: /Premium/ });
    expect(within(premium).getAllByRole('cell').map((c) => c.textContent)).toEqual(['7', '3', '10']);
    expect(within(premium).getByText('1,000 books')).toBeInTheDocument();
    // Over-allocated (issue 15): the real figure, flagged, rather than a reassuring 0.
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

  it('offers Retry when the licences fail to load, and shows them once they load (issue 15)', async () => {
    let failing = true;
    serve(async () => (failing ? { body: { errors: [{ message: 'nope' }] } } : { body: organisation() }));
    renderAt(<LicensesPage />, '/org-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(organisationMessages.licensesLoadFailed);
    failing = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Licenses' })).toBeInTheDocument();
  });
});
