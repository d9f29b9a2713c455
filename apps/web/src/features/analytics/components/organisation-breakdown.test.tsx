import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnalyticsBreakdownRow } from '@quire/core';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { renderRoutes } from '../../../test/render.js';
import { timeRange } from '../model/time-range.js';
import { OrganisationBreakdown } from './organisation-breakdown.js';

afterEach(() => vi.unstubAllGlobals());

const metrics = ['sessions', 'sessions-duration', 'sessions-by-os', 'sessions-by-provider', 'email-domains'];
const session = {
  refreshIn: 3600,
  usersOrganisation: { id: 'd-1', name: 'Riverside' },
  signedQuery: 'session=s&expires=1&signature=x',
  urls: {
    studentsCount: '', librariesCount: '', booksCount: '', booksCountPeriodic: '',
    breakdown: '/analytics/data/app/organisations/d-1/breakdown.json?session=s&expires=1&signature=x',
    data: Object.fromEntries(metrics.map((m) => [m, { total: '', daily: '', weekly: '', monthly: '' }])),
  },
};
const row = (organisationId: string, organisationName: string, own: boolean, n: number): AnalyticsBreakdownRow => ({
  organisationId, organisationName, own, students: 1000 * n, libraries: n, books: 10 * n, booksCreated: n, sessions: 100 * n, sessionSeconds: 5400 * n,
});

describe("a district's figures by school", () => {
  it("lists the district's own row, each school linking to its Analytics, and a Total; the range goes with the request", async () => {
    const server = fakeFetch({
      'GET /analytics/sessions/app/organisations/d-1': { body: session },
      'GET /analytics/data/app/organisations/d-1/breakdown.json': {
        body: { from: '20240101', to: '20240131', organisations: [row('d-1', 'Riverside', true, 0), row('s-1', 'North Elementary', false, 1), row('s-2', 'South Primary', false, 2)] },
      },
    });
    const range = timeRange('Last 30 days', new Date('2024-01-31T12:00:00Z'));
    const { router } = renderRoutes(
      [
        { path: '/d-1/analytics', element: <OrganisationBreakdown orgId="d-1" range={range} unit="school" sessionReady sessionFailed={false} retrySession={() => Promise.resolve()} /> },
        { path: '/s-1/analytics', element: <p>North's analytics</p> },
      ],
      '/d-1/analytics',
    );
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'School', 'Students', 'Libraries', 'Books', 'Books created, last 30 days', 'Sessions, last 30 days', 'Session duration (hours), last 30 days',
    ]);
    const rows = within(table).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ["Riverside (district's own)", '0', '0', '0', '0', '0', '0'],
      ['North Elementary', '1,000', '1', '10', '1', '100', '1.5'],
      ['South Primary', '2,000', '2', '20', '2', '200', '3'],
      ['Total', '3,000', '3', '30', '3', '300', '4.5'],
    ]);
    expect(server.requests.find((r) => r.path.endsWith('/breakdown.json'))?.query.get('from')).toBe('20240102');
    expect(within(table).queryByRole('link', { name: 'Riverside' })).toBeNull();

    // The school's name opens its Analytics, from the keyboard.
    const user = userEvent.setup();
    within(table).getByRole('link', { name: 'North Elementary' }).focus();
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/s-1/analytics');
  });

  it('says when the figures failed to load, with Retry', async () => {
    fakeFetch({
      'GET /analytics/sessions/app/organisations/d-1': { body: session },
      'GET /analytics/data/app/organisations/d-1/breakdown.json': { status: 500, body: { code: 'internal_error', message: 'Something went wrong' } },
    });
    renderRoutes(
      [{ path: '*', element: <OrganisationBreakdown orgId="d-1" range={timeRange('Weekly')} unit="school" sessionReady sessionFailed={false} retrySession={() => Promise.resolve()} /> }],
      '/d-1/analytics',
    );
    expect(await screen.findByRole('button', { name: 'Retry By school' })).toBeInTheDocument();
  });
});
