import { portfolioMessages } from '@quire/core';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { buildSession, renderAt } from '../../../test/render.js';
import { nextRefreshMs } from '../api/get-portfolio-download.js';
import { ApiError } from '../../../lib/api/api-error.js';
import { PortfoliosPage } from './portfolios-page.js';

const session = buildSession();
const path = '/rest/org-1/student-portfolios-export/user-1';

afterEach(() => vi.unstubAllGlobals());

describe('PortfoliosPage', () => {
  it('offers the signed link and when it was generated', async () => {
    fakeFetch({ [`GET ${path}`]: () => ({ body: { url: '/rest/org-1/student-portfolios-export/e-1/download?signature=x', generatedAt: '2026-01-02T03:04:05.000Z', refreshIn: 900 } }) });
    renderAt(<PortfoliosPage />, '/', { session });
    const link = await screen.findByRole('link', { name: 'Download CSV' });
    expect(link).toHaveAttribute('href', '/rest/org-1/student-portfolios-export/e-1/download?signature=x');
    expect(screen.getByText(/^Generated /)).toBeInTheDocument();
  });

  it.each([
    [404, portfolioMessages.notEnabled, portfolioMessages.notEnabled],
    [425, portfolioMessages.noExportYet, portfolioMessages.notReady],
  ])('answers %i with the spec text', async (status, message, shown) => {
    fakeFetch({ [`GET ${path}`]: () => ({ status, body: { code: 'x', message } }) });
    renderAt(<PortfoliosPage />, '/', { session });
    expect(await screen.findByRole('status')).toHaveTextContent(shown);
    if (status === 425) expect(screen.getByRole('status')).toHaveTextContent(portfolioMessages.notReadyNote);
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
  });

  it("shows any other status as a banner with the server's message", async () => {
    fakeFetch({ [`GET ${path}`]: () => ({ status: 500, body: { code: 'internal', message: 'Export storage is unavailable' } }) });
    renderAt(<PortfoliosPage />, '/', { session });
    expect(await screen.findByRole('alert')).toHaveTextContent('Export storage is unavailable');
  });
});

describe('nextRefreshMs', () => {
  const link = { url: '/x', generatedAt: '', refreshIn: 900, receivedAt: 0, expiresAt: 900_000 };
  it('renews before the link expires (arrival + refreshIn)', () => {
    expect(nextRefreshMs(link, null, 0)).toBe(900_000 - 15_000);
    expect(nextRefreshMs({ ...link, refreshIn: 20, expiresAt: 20_000 }, null, 0)).toBe(15_000);
  });
  it('polls every minute while the export is not ready, and stops after other errors', () => {
    expect(nextRefreshMs(undefined, new ApiError({ status: 425, code: 'x', message: 'x' }))).toBe(60_000);
    expect(nextRefreshMs(undefined, new ApiError({ status: 404, code: 'x', message: 'x' }))).toBe(false);
  });
});
