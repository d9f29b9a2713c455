import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RosterImport } from '@quire/core';
import { signIn } from './auth.js';
import { buildAdmin, buildOrganisation } from './factories.js';
import type { FileApp } from './file-app.js';
import { uniqueEmail } from './file-app.js';

/**
 * Rostering test helpers. Zips and CSV files are written by Python's standard library (zipfile, csv), writers
 * independent of the readers the server uses (yauzl, csv-parse).
 */

export interface ZipEntry {
  name: string;
  data: string | Buffer;
  /** The data written this many times over (a zip bomb's entry), built by Python, not in this process. */
  repeat?: number;
}

const ZIP_SCRIPT = `
import json, sys, zipfile, io, base64
spec = json.load(sys.stdin)
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for e in spec:
        z.writestr(e['name'], base64.b64decode(e['data']) * e.get('repeat', 1))
sys.stdout.buffer.write(out.getvalue())
`;

/** A zip of the entries (deflated), written by Python's zipfile. Names are kept as given, `../x` included. */
export function zipWithPython(entries: readonly ZipEntry[]): Buffer {
  const spec = entries.map((e) => ({ name: e.name, data: Buffer.from(e.data).toString('base64'), repeat: e.repeat ?? 1 }));
  return execFileSync('python3', ['-c', ZIP_SCRIPT], { input: JSON.stringify(spec), maxBuffer: 512 * 1024 * 1024 });
}

const CSV_SCRIPT = `
import csv, json, sys
rows = json.load(sys.stdin)
w = csv.writer(sys.stdout, lineterminator='\\r\\n')
w.writerows(rows)
`;

/** CSV text of the rows, written by Python's csv module (RFC 4180 quoting, CRLF). */
export function csvWithPython(rows: readonly (readonly string[])[]): string {
  return execFileSync('python3', ['-c', CSV_SCRIPT], { input: JSON.stringify(rows), encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
}

const FIXTURES = new URL('./fixtures/oneroster-1.2/', import.meta.url);

/** The 1EdTech-style OneRoster 1.2 sample set of ./fixtures, file by file (each may be replaced). */
export function sampleFiles(replace: Record<string, string | null> = {}): ZipEntry[] {
  const names = readdirSync(FIXTURES);
  const entries: ZipEntry[] = names.filter((n) => !(n in replace) || replace[n] !== null).map((name) => ({ name, data: replace[name] ?? readFileSync(join(FIXTURES.pathname, name), 'utf8') }));
  for (const [name, data] of Object.entries(replace)) if (data !== null && !names.includes(name)) entries.push({ name, data });
  return entries;
}

export function sampleFile(name: string): string {
  return readFileSync(join(FIXTURES.pathname, name), 'utf8');
}

/** A district with two schools, an admin of the district signed in, and the sample's orgs matched to them. */
export async function rosterDistrict(t: FileApp, options: { link?: boolean } = {}) {
  const district = await buildOrganisation(t.app.db, { name: 'Springfield Unified' });
  const elementary = await buildOrganisation(t.app.db, { name: 'Springfield Elementary', parent_id: district.id });
  const middle = await buildOrganisation(t.app.db, { name: 'Springfield Middle', parent_id: district.id });
  const email = uniqueEmail('district-admin');
  await buildAdmin(t.app.db, { organisationId: district.id, email });
  const { headers } = await signIn(t.app, { email });
  const admin = { ...headers, origin: t.origin };
  if (options.link !== false) {
    const linked = await t.app.inject({
      method: 'PUT', url: `/api/organisations/${district.id}/rostering/orgs`, headers: admin,
      payload: { links: [
        { sourcedId: 'org-district-001', organisationId: district.id },
        { sourcedId: 'org-school-101', organisationId: elementary.id },
        { sourcedId: 'org-school-102', organisationId: middle.id },
      ] },
    });
    expect(linked.statusCode, linked.body).toBe(200);
  }
  return { district, elementary, middle, admin, email };
}

export function upload(t: FileApp, headers: Record<string, string>, orgId: string, zip: Buffer, query: Record<string, string> = {}) {
  const search = new URLSearchParams({ fileName: 'export.zip', ...query });
  return t.app.inject({ method: 'POST', url: `/api/organisations/${orgId}/rostering/imports?${search}`, headers: { ...headers, 'content-type': 'application/zip' }, payload: zip });
}

/** Uploads, expects a preview, and answers it. */
export async function preview(t: FileApp, headers: Record<string, string>, orgId: string, zip: Buffer, query: Record<string, string> = {}): Promise<RosterImport> {
  const response = await upload(t, headers, orgId, zip, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<RosterImport>();
}

/** Applies a previewed import and waits for its job. */
export async function apply(t: FileApp, headers: Record<string, string>, orgId: string, importId: string): Promise<RosterImport> {
  const response = await t.app.inject({ method: 'POST', url: `/api/organisations/${orgId}/rostering/imports/${importId}/apply`, headers });
  expect(response.statusCode, response.body).toBe(200);
  await t.app.jobs.waitForIdle('roster-apply');
  const after = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/rostering/imports/${importId}`, headers });
  return after.json<RosterImport>();
}
