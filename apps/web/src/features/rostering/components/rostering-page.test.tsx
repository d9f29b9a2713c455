import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RosterImport } from '@quire/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { ROSTERING_ADMINS_ONLY_TEXT, RosteringPage } from './rostering-page.js';

afterEach(() => vi.unstubAllGlobals());

const ORGS = 'GET /api/organisations/:orgId/rostering/orgs';
const HISTORY = 'GET /api/organisations/:orgId/rostering/imports';
const IMPORT = 'GET /api/organisations/:orgId/rostering/imports/:importId';
const organisations = [
  { id: 'org-1', name: 'Springfield Unified' },
  { id: 'org-2', name: 'Springfield Elementary' },
];

const person = (sourcedId: string, name: string, email: string) => ({ sourcedId, name, email, role: 'teacher', organisation: 'Springfield Elementary', changes: [] });
const preview: RosterImport = {
  id: 'imp-1',
  status: 'preview',
  fileName: 'springfield.zip',
  version: '1.2',
  mode: 'bulk',
  createdBy: 'admin@springfield.example.org',
  createdAt: '2026-03-05T08:15:00.000Z',
  appliedAt: null,
  counts: { add: 2, update: 1, retire: 0, unchanged: 0, errors: 1, students: 2, skipped: 1 },
  progress: { done: 0, total: 0 },
  options: { aides: 'skip', consoleAdmins: true, licence: 'none', licenceName: '', allOrNothing: false },
  preview: {
    add: [person('usr-1', 'Edna Krabappel', 'ekrabappel@springfield.example.org'), person('usr-2', 'Dewey Largo', 'dlargo@springfield.example.org')],
    update: [{ ...person('usr-3', 'Elizabeth Hoover', 'ehoover@springfield.example.org'), changes: ['email'] }],
    retire: [],
    errors: [{ file: 'users.csv', line: 9, column: 'email', reason: 'The e-mail address is not valid' }],
  },
  orgs: [
    { sourcedId: 'org-school-101', name: 'Springfield Elementary School', type: 'school', organisationId: 'org-2' },
    { sourcedId: 'org-school-102', name: 'Springfield Middle School', type: 'school', organisationId: null },
  ],
};
const summary = ({ options: _o, preview: _p, orgs: _g, ...rest }: RosterImport) => rest;

describe('Rostering', () => {
  it('saves the OneRoster ids, uploads with the chosen mapping, previews, applies with live progress and lists the import', async () => {
    let state: RosterImport = preview;
    let polls = 0;
    const server = fakeFetch({
      [ORGS]: () => ({ body: { links: [{ sourcedId: 'org-district-001', organisationId: 'org-1' }], organisations } }),
      'PUT /api/organisations/:orgId/rostering/orgs': (request) => ({ body: { ...(request.body as object), organisations } }),
      [HISTORY]: () => ({ body: { imports: polls > 0 || state.status !== 'preview' ? [summary(state)] : [] } }),
      'POST /api/organisations/:orgId/rostering/imports': () => ({ body: preview }),
      [IMPORT]: () => {
        polls += 1;
        if (state.status === 'queued') state = { ...state, status: 'applying', progress: { done: 1, total: 3 } };
        else if (state.status === 'applying') state = { ...state, status: 'applied', appliedAt: '2026-03-05T08:16:00.000Z', progress: { done: 3, total: 3 } };
        return { body: state };
      },
      'POST /api/organisations/:orgId/rostering/imports/:importId/apply': () => {
        state = { ...preview, status: 'queued', progress: { done: 0, total: 3 } };
        return { body: state };
      },
    });
    renderAt(<RosteringPage />);
    const user = userEvent.setup();

    const districtId = await screen.findByLabelText('OneRoster id of Springfield Unified');
    expect(districtId).toHaveValue('org-district-001');
    await user.type(screen.getByLabelText('OneRoster id of Springfield Elementary'), 'org-school-101, org-school-103');
    await user.click(screen.getByRole('button', { name: 'Save OneRoster ids' }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({
      links: [
        { sourcedId: 'org-district-001', organisationId: 'org-1' },
        { sourcedId: 'org-school-101', organisationId: 'org-2' },
        { sourcedId: 'org-school-103', organisationId: 'org-2' },
      ],
    });

    // Without a file, the form says so and sends nothing.
    await user.click(screen.getByRole('button', { name: 'Upload and preview' }));
    expect(await screen.findByText('Choose the OneRoster zip to upload')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Administrators become console admins/ }));
    await user.click(screen.getByRole('radio', { name: 'A named licence' }));
    await user.type(screen.getByRole('textbox', { name: 'Licence name' }), 'Quire Premium');
    await user.upload(screen.getByLabelText('OneRoster zip'), new File(['PK'], 'springfield.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Upload and preview' }));

    const heading = await screen.findByRole('heading', { name: 'Preview of springfield.zip' });
    await waitFor(() => expect(heading).toHaveFocus());
    const upload = server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/rostering/imports'));
    expect(Object.fromEntries(upload?.query ?? [])).toEqual({
      fileName: 'springfield.zip', aides: 'skip', consoleAdmins: 'true', licence: 'named', licenceName: 'Quire Premium', allOrNothing: 'false',
    });
    expect(upload?.headers['content-type']).toBe('application/zip');

    const counts = screen.getByRole('table', { name: 'Preview counts' });
    expect(within(counts).getByRole('row', { name: 'To add 2' })).toBeInTheDocument();
    expect(within(counts).getByRole('row', { name: 'To update 1' })).toBeInTheDocument();
    expect(within(counts).getByRole('row', { name: 'Errors 1' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'People to add' })).getByText('Edna Krabappel')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'People to update' })).getByText('e-mail')).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Errors in the file' })).getByText('The e-mail address is not valid')).toBeInTheDocument();
    expect(screen.getByText('Springfield Middle School (school, org-school-102)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Confirm and apply' }));
    expect(await screen.findByRole('heading', { name: 'Applying springfield.zip' })).toBeInTheDocument();
    expect(await screen.findByText('1 of 3 rows done', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(await screen.findByText('Import applied: 2 added, 1 updated, 0 retired, 1 error.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.endsWith('/apply'))).toHaveLength(1);

    const history = await screen.findByRole('table', { name: 'Rostering imports' });
    await waitFor(() => expect(within(history).getByText('Applied')).toBeInTheDocument());
    expect(within(history).getByText('admin@springfield.example.org')).toBeInTheDocument();
    expect(within(history).getByRole('button', { name: 'Download errors (CSV) of springfield.zip' })).toBeInTheDocument();
  });

  it('shows the progress of an import still running when the admin comes back', async () => {
    const running: RosterImport = { ...preview, status: 'applying', progress: { done: 2, total: 3 } };
    fakeFetch({
      [ORGS]: () => ({ body: { links: [], organisations } }),
      [HISTORY]: () => ({ body: { imports: [summary(running)] } }),
      [IMPORT]: () => ({ body: running }),
    });
    renderAt(<RosteringPage />);
    expect(await screen.findByRole('heading', { name: 'Applying springfield.zip' })).toBeInTheDocument();
    expect(screen.getByText('2 of 3 rows done')).toBeInTheDocument();
  });

  it('shows why a file was refused, and cancelling a preview returns focus to the file input', async () => {
    const server = fakeFetch({
      [ORGS]: () => ({ body: { links: [], organisations } }),
      [HISTORY]: () => ({ body: { imports: [summary(preview)] } }),
      [IMPORT]: () => ({ body: preview }),
      'POST /api/organisations/:orgId/rostering/imports': () => ({ status: 400, body: { code: 'roster_file_invalid', message: 'manifest.csv: the zip has no manifest.csv' } }),
      'POST /api/organisations/:orgId/rostering/imports/:importId/cancel': () => ({ body: { ...preview, status: 'cancelled' } }),
    });
    renderAt(<RosteringPage />);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Preview of springfield.zip' });
    await user.click(screen.getByRole('button', { name: 'Cancel import' }));
    await waitFor(() => expect(screen.getByLabelText('OneRoster zip')).toHaveFocus());
    expect(screen.queryByRole('heading', { name: 'Preview of springfield.zip' })).not.toBeInTheDocument();
    expect(server.requests.filter((r) => r.path.endsWith('/cancel'))).toHaveLength(1);

    await user.upload(screen.getByLabelText('OneRoster zip'), new File(['not a zip'], 'export.zip', { type: 'application/zip' }));
    await user.click(screen.getByRole('button', { name: 'Upload and preview' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('manifest.csv: the zip has no manifest.csv');
    expect(alert).toHaveTextContent('Nothing was changed.');
  });

  it('tells a library manager that only admins import a roster', async () => {
    fakeFetch({
      [ORGS]: () => ({ status: 403, body: { code: 'admin_required', message: 'Your account cannot perform this action' } }),
      [HISTORY]: () => ({ status: 403, body: { code: 'admin_required', message: 'Your account cannot perform this action' } }),
    });
    renderAt(<RosteringPage />);
    expect(await screen.findByText(ROSTERING_ADMINS_ONLY_TEXT)).toBeInTheDocument();
  });
});
