import { isValidEmail, normaliseEmail, type RosterError } from '@quire/core';
import { readCsv, type CsvRecord, type HeaderRule } from './oneroster-csv.js';
import { RosterFileError } from './oneroster-errors.js';
import {
  MANIFEST_HEADER, ONEROSTER_FILES, ORGS_HEADER, ROLES_HEADER, isFormulaCell, roleKind, usersHeader,
  type OneRosterVersion, type ProcessingMode, type RoleKind,
} from './oneroster-format.js';
import { openRosterZip, type ZipEntries } from './oneroster-zip.js';

/** An organisation of orgs.csv. */
interface RosterOrg {
  sourcedId: string;
  name: string;
  type: string;
}

/** A member of staff of users.csv that Quire imports (teacher, administrator, aide), or one whose row has an error. */
export interface RosterPerson {
  line: number;
  sourcedId: string;
  /** False for status tobedeleted or enabledUser false: the person is retired. */
  active: boolean;
  email: string;
  givenName: string;
  familyName: string;
  /** The OneRoster role as the file spells it. */
  role: string;
  kind: RoleKind;
  /** Their orgs, the primary one first. */
  orgSourcedIds: string[];
  /** The row has an error: the person is neither imported nor retired by this file. */
  hasError: boolean;
}

export interface ParsedRoster {
  version: OneRosterVersion;
  mode: ProcessingMode;
  orgs: RosterOrg[];
  people: RosterPerson[];
  errors: RosterError[];
  /** Students in users.csv: counted, not imported. */
  students: number;
  /** Guardians, parents, relatives and proctors: counted, not imported. */
  others: number;
}

interface Manifest {
  version: OneRosterVersion;
  files: Map<string, 'bulk' | 'delta' | 'absent'>;
}

async function readManifest(zip: ZipEntries): Promise<Manifest> {
  const entry = zip.files.get('manifest.csv');
  if (!entry) throw new RosterFileError({ file: 'manifest.csv', line: null, column: null, reason: 'the zip has no manifest.csv: it is not a OneRoster 1.1 or 1.2 CSV export' });
  const properties = new Map<string, { value: string; line: number }>();
  for await (const batch of readCsv('manifest.csv', await zip.open(entry), MANIFEST_HEADER)) {
    for (const record of batch) properties.set(record.values.propertyName ?? '', { value: record.values.value ?? '', line: record.line });
  }
  const version = properties.get('oneroster.version');
  if (version?.value !== '1.2' && version?.value !== '1.1') {
    throw new RosterFileError({ file: 'manifest.csv', line: version?.line ?? null, column: 'value', reason: `oneroster.version is ${version ? `"${version.value}"` : 'missing'}: Quire reads OneRoster 1.2 and 1.1` });
  }
  const files = new Map<string, 'bulk' | 'delta' | 'absent'>();
  for (const name of ONEROSTER_FILES) {
    const property = properties.get(`file.${name}`);
    if (!property) continue;
    const value = property.value.toLowerCase();
    if (value !== 'bulk' && value !== 'delta' && value !== 'absent') {
      throw new RosterFileError({ file: 'manifest.csv', line: property.line, column: 'value', reason: `file.${name} is "${property.value}": it must be bulk, delta or absent` });
    }
    files.set(name, value);
  }
  return { version: version.value, files };
}

/** The manifest and the zip agree: every file it names is there, and none it says is absent. */
function checkFiles(zip: ZipEntries, manifest: Manifest): void {
  for (const [name, mode] of manifest.files) {
    const present = zip.files.has(`${name.toLowerCase()}.csv`);
    if (mode !== 'absent' && !present) {
      throw new RosterFileError({ file: `${name}.csv`, line: null, column: null, reason: `the manifest names ${name}.csv (${mode}) but the zip does not have it` });
    }
    if (mode === 'absent' && present) {
      throw new RosterFileError({ file: `${name}.csv`, line: null, column: null, reason: `the manifest says ${name}.csv is absent but the zip has it` });
    }
  }
  const users = manifest.files.get('users');
  if (!users || users === 'absent') throw new RosterFileError({ file: 'manifest.csv', line: null, column: null, reason: 'the manifest says users.csv is absent: there is nobody to import' });
}

/** A file's records in batches (none when the zip does not have it): loop over each batch's records. */
async function* records(zip: ZipEntries, name: string, rule: HeaderRule): AsyncGenerator<CsvRecord[]> {
  const entry = zip.files.get(name.toLowerCase());
  if (!entry) return;
  yield* readCsv(name, await zip.open(entry), rule);
}

interface RoleRow {
  role: string;
  primary: boolean;
  org: string;
}

/** The zip at `path`, read and checked. Fatal problems are thrown (RosterFileError); row problems are listed. */
export async function readRosterZip(path: string): Promise<ParsedRoster> {
  const zip = await openRosterZip(path);
  try {
    return await readRoster(zip);
  } finally {
    zip.close();
  }
}

async function readRoster(zip: ZipEntries): Promise<ParsedRoster> {
  const manifest = await readManifest(zip);
  checkFiles(zip, manifest);
  const mode = manifest.files.get('users') === 'delta' ? 'delta' : 'bulk';
  const errors: RosterError[] = [];
  const error = (file: string, line: number, column: string | null, reason: string) => errors.push({ file, line, column, reason });

  const orgs: RosterOrg[] = [];
  const orgIds = new Set<string>();
  for await (const batch of records(zip, 'orgs.csv', ORGS_HEADER)) for (const { line, values } of batch) {
    const sourcedId = values.sourcedId ?? '';
    if (!sourcedId) error('orgs.csv', line, 'sourcedId', 'missing sourcedId');
    else if (orgIds.has(sourcedId)) error('orgs.csv', line, 'sourcedId', `duplicate sourcedId ${sourcedId}`);
    else {
      orgIds.add(sourcedId);
      if ((values.status ?? '').toLowerCase() !== 'tobedeleted') orgs.push({ sourcedId, name: values.name ?? '', type: values.type ?? '' });
    }
  }

  // 1.2: a person's roles and their orgs are rows of roles.csv, read before users.csv.
  const roles = new Map<string, RoleRow[]>();
  const roleIds = new Set<string>();
  for await (const batch of records(zip, 'roles.csv', ROLES_HEADER)) for (const { line, values } of batch) {
    const sourcedId = values.sourcedId ?? '';
    if (!sourcedId) { error('roles.csv', line, 'sourcedId', 'missing sourcedId'); continue; }
    if (roleIds.has(sourcedId)) { error('roles.csv', line, 'sourcedId', `duplicate sourcedId ${sourcedId}`); continue; }
    roleIds.add(sourcedId);
    if ((values.status ?? '').toLowerCase() === 'tobedeleted') continue;
    const user = values.userSourcedId ?? '';
    const role = values.role ?? '';
    if (!roleKind(role)) { error('roles.csv', line, 'role', `"${role}" is not a OneRoster role`); continue; }
    const list = roles.get(user) ?? [];
    list.push({ role, primary: (values.roleType ?? '').toLowerCase() === 'primary', org: values.orgSourcedId ?? '' });
    roles.set(user, list);
  }
  const hasRolesFile = zip.files.has('roles.csv');

  const people: RosterPerson[] = [];
  const seen = new Set<string>();
  const emails = new Map<string, number>();
  let students = 0;
  let others = 0;
  for await (const batch of records(zip, 'users.csv', usersHeader(manifest.version))) for (const { line, values } of batch) {
    const sourcedId = values.sourcedId ?? '';
    if (!sourcedId) { error('users.csv', line, 'sourcedId', 'missing sourcedId'); continue; }
    if (seen.has(sourcedId)) { error('users.csv', line, 'sourcedId', `duplicate sourcedId ${sourcedId}`); continue; }
    seen.add(sourcedId);
    const held = (column: string | null, reason: string) => {
      error('users.csv', line, column, reason);
      people.push({ line, sourcedId, active: true, email: '', givenName: '', familyName: '', role: '', kind: 'other', orgSourcedIds: [], hasError: true });
    };

    let role: string;
    let orgSourcedIds: string[];
    const userRoles = roles.get(sourcedId);
    if (hasRolesFile && !values.role) {
      if (!userRoles?.length) {
        if (mode === 'delta' && (values.status ?? '').toLowerCase() === 'tobedeleted') { role = ''; orgSourcedIds = []; }
        else { held('sourcedId', 'the person has no role in roles.csv'); continue; }
      } else {
        const primary = userRoles.find((r) => r.primary) ?? userRoles[0]!;
        role = primary.role;
        orgSourcedIds = [primary.org, ...userRoles.filter((r) => r !== primary).map((r) => r.org)];
      }
    } else {
      role = values.role ?? '';
      orgSourcedIds = (values.orgSourcedIds ?? '').split(',').map((id) => id.trim()).filter(Boolean);
    }
    const kind = role === '' ? 'teacher' : roleKind(role);
    if (!kind) { held('role', `"${role}" is not a OneRoster role`); continue; }
    if (kind === 'student') { students += 1; continue; }
    if (kind === 'other') { others += 1; continue; }
    const primaryOrg = values.primaryOrgSourcedId ?? '';
    if (primaryOrg) orgSourcedIds = [primaryOrg, ...orgSourcedIds.filter((id) => id !== primaryOrg)];
    orgSourcedIds = [...new Set(orgSourcedIds.filter(Boolean))];

    const active = (values.status ?? '').toLowerCase() !== 'tobedeleted' && (values.enabledUser ?? '').toLowerCase() !== 'false';
    const formula = ['givenName', 'familyName', 'email', 'username'].find((column) => isFormulaCell(values[column] ?? ''));
    if (formula) { held(formula, `the value starts with "${(values[formula] ?? '').charAt(0)}", which a spreadsheet would run as a formula`); continue; }
    const email = normaliseEmail(values.email ?? '');
    if (active) {
      if (!email) { held('email', 'missing e-mail'); continue; }
      if (!isValidEmail(email)) { held('email', `bad e-mail "${values.email}"`); continue; }
      const first = emails.get(email);
      if (first !== undefined) { held('email', `the e-mail ${email} is also the e-mail of line ${first}`); continue; }
      emails.set(email, line);
      if (orgSourcedIds.length === 0) { held('orgSourcedIds', 'the person belongs to no org'); continue; }
      const unknown = mode === 'bulk' ? orgSourcedIds.find((id) => !orgIds.has(id)) : undefined;
      if (unknown) { held(hasRolesFile ? 'orgSourcedId' : 'orgSourcedIds', `unknown org ${unknown}: it is not in orgs.csv`); continue; }
    }
    people.push({
      line, sourcedId, active, email, givenName: values.givenName ?? '', familyName: values.familyName ?? '',
      role, kind, orgSourcedIds, hasError: false,
    });
  }
  return { version: manifest.version, mode, orgs, people, errors, students, others };
}
