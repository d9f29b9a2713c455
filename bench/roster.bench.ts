/**
 * Rostering benchmark (docs/rostering.md, "Scale"; figures in docs/performance.md): a generated OneRoster 1.2 bulk
 * export of a district with 20 schools and 50,000 people (2,500 staff: teachers, principals, aides; the rest
 * students), zipped by Python's zipfile; then the preview (upload → read the zip streaming → stage → plan) and the
 * apply (the job's work, batch by batch) timed, with the process's resident memory sampled throughout. Then the same
 * file is previewed again (nothing to add, update or retire), and an export that renames every staff member is
 * previewed and applied (every member an update).
 *
 *   npx tsx bench/roster.bench.ts [--people N] [--schools N] [--staff-share F]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5545/postgres npx tsx bench/roster.bench.ts
 *
 * Without BENCH_DATABASE_URL it runs on an in-memory PGlite in this process; with it, on a database of its own
 * (quire_bench_roster), dropped afterwards. The services are called directly (no HTTP): the figures are the work.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { applyBatchSize, applyRoster } from '../apps/server/src/modules/rostering/roster-apply.service.js';
import { uploadRoster } from '../apps/server/src/modules/rostering/roster.service.js';
import { testEnv } from '../apps/server/test/helper.js';
import { adminQuery } from './load.js';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '50000' },
    schools: { type: 'string', default: '20' },
    'staff-share': { type: 'string', default: '0.05' },
  },
});
const PEOPLE = Number(values.people);
const SCHOOLS = Number(values.schools);
const STAFF = Math.round(PEOPLE * Number(values['staff-share']));
const DB_NAME = 'quire_bench_roster';
const adminUrl = process.env.BENCH_DATABASE_URL;

const ZIP = `
import csv, io, sys, zipfile
people, schools, staff, family = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
files = {}
def table(name, header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator='\\r\\n')
    w.writerow(header)
    w.writerows(rows)
    files[name] = out.getvalue()
names = ['academicSessions','categories','classes','classResources','courses','courseResources','demographics','enrollments','lineItemLearningObjectiveIds','lineItems','lineItemScoreScales','orgs','resources','results','resultLearningObjectiveIds','resultScoreScales','roles','scoreScales','userProfiles','userResources','users']
table('manifest.csv', ['propertyName','value'], [['manifest.version','1.0'],['oneroster.version','1.2']] + [['file.' + n, 'bulk' if n in ('orgs','users','roles') else 'absent'] for n in names])
table('orgs.csv', ['sourcedId','status','dateLastModified','name','type','identifier','parentSourcedId'], [['d-1','','','Bench District','district','D1','']] + [['s-%d' % i,'','','Bench School %d' % i,'school','S%d' % i,'d-1'] for i in range(schools)])
users, roles = [], []
for i in range(people):
    school = 's-%d' % (i % schools)
    role = 'student' if i >= staff else ('principal' if i < schools else ('aide' if i % 10 == 0 else 'teacher'))
    users.append(['u-%d' % i,'','','true','user%d' % i,'','Given%d' % i,family + '%d' % i,'','','user%d@bench-district.example.org' % i,'','','','','','','','','','',school,''])
    roles.append(['r-%d' % i,'','','u-%d' % i,'primary',role,'','',school,''])
table('users.csv', ['sourcedId','status','dateLastModified','enabledUser','username','userIds','givenName','familyName','middleName','identifier','email','sms','phone','agentSourcedIds','grades','password','userMasterIdentifier','resourceSourcedIds','preferredGivenName','preferredMiddleName','preferredFamilyName','primaryOrgSourcedId','pronouns'], users)
table('roles.csv', ['sourcedId','status','dateLastModified','userSourcedId','roleType','role','beginDate','endDate','orgSourcedId','userProfileSourcedId'], roles)
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for n, data in files.items():
        z.writestr(n, data)
sys.stdout.buffer.write(out.getvalue())
`;

/** The district's export; `family` is the staff's family name (a second export with another one renames everyone). */
const exportZip = (family: string) => execFileSync('python3', ['-c', ZIP, String(PEOPLE), String(SCHOOLS), String(STAFF), family], { maxBuffer: 1024 * 1024 * 1024 });
const zip = exportZip('Family');
console.log(`Generated: ${PEOPLE.toLocaleString()} people (${STAFF.toLocaleString()} staff), ${SCHOOLS} schools, zip ${(zip.length / 1024 / 1024).toFixed(1)} MB`);

let url: string | undefined;
if (adminUrl) {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(adminUrl, `CREATE DATABASE ${DB_NAME}`);
  const u = new URL(adminUrl);
  u.pathname = `/${DB_NAME}`;
  url = u.toString();
}
const env = testEnv({ DATABASE_URL: url });
const database = await openDatabase({ ...env, inMemory: !url });
await migrateToLatest(database.db);
const db = database.db;

const district = randomUUID();
await db.insertInto('organisations').values({ id: district, name: 'Bench District' }).execute();
const links = [{ organisation_id: district, sourced_id: 'd-1', target_organisation_id: district }];
for (let i = 0; i < SCHOOLS; i += 1) {
  const id = randomUUID();
  await db.insertInto('organisations').values({ id, name: `Bench School ${i}`, parent_id: district }).execute();
  links.push({ organisation_id: district, sourced_id: `s-${i}`, target_organisation_id: id });
}
await db.insertInto('roster_org_links').values(links).execute();
const adminEmail = 'bench-admin@bench-district.example.org';
await db.insertInto('admins').values({ organisation_id: district, email: adminEmail }).execute();
const actor = { userId: randomUUID(), email: adminEmail, displayName: 'Bench admin', emailVerified: true };
const deps = { db, queueApply: async () => undefined };
const query = { fileName: 'bench.zip', aides: 'teacher' as const, consoleAdmins: 'false' as const, licence: 'none' as const, licenceName: '', allOrNothing: 'false' as const };

let peak = process.memoryUsage().rss;
const sampler = setInterval(() => void (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function timedPreview(file = zip) {
  const path = join(tmpdir(), `roster-bench-${randomUUID()}.zip`);
  await writeFile(path, file);
  const start = performance.now();
  const result = await uploadRoster(deps, actor, district, { path, bytes: file.length }, query);
  return { result, ms: performance.now() - start };
}

const baseline = process.memoryUsage().rss;
peak = baseline;
const first = await timedPreview();
console.log(`Preview: ${(first.ms / 1000).toFixed(1)} s, counts ${JSON.stringify(first.result.counts)}, memory growth ${mb(peak - baseline)} (rss ${mb(peak)})`);

async function timedApply(importId: string) {
  await db.updateTable('roster_imports').set({ status: 'queued' }).where('id', '=', importId).execute();
  peak = process.memoryUsage().rss;
  const base = peak;
  const start = performance.now();
  const applied = await applyRoster({ db, batchSize: applyBatchSize(database.kind), adminRules: { providerEmailDomain: env.PROVIDER_EMAIL_DOMAIN, productName: env.PRODUCT_NAME, districtSsoDomains: [] } }, district, importId);
  const ms = performance.now() - start;
  const members = await db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return `${(ms / 1000).toFixed(1)} s for ${applied?.applied ?? 0} changes, members now ${Number(members.n).toLocaleString()}, memory growth ${mb(peak - base)} (rss ${mb(peak)})`;
}

console.log(`Apply: ${await timedApply(first.result.id)}`);

const again = await timedPreview();
console.log(`Preview of the same file again: ${(again.ms / 1000).toFixed(1)} s, counts ${JSON.stringify(again.result.counts)}`);
await db.updateTable('roster_imports').set({ status: 'cancelled' }).where('id', '=', again.result.id).execute();

// Every member's name changes: the apply's updates, as a district whose SIS renamed a field would send them.
const renamed = await timedPreview(exportZip('Renamed'));
console.log(`Preview of an export renaming everyone: ${(renamed.ms / 1000).toFixed(1)} s, counts ${JSON.stringify(renamed.result.counts)}`);
console.log(`Apply of the renames: ${await timedApply(renamed.result.id)}`);
clearInterval(sampler);
await db.destroy();
if (adminUrl) await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
