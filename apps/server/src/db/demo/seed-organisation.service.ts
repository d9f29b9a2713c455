import type { Kysely } from 'kysely';
import type { DB } from '../types.js';
import {
  allocatedByLicense, insertAdmins, insertColumns, insertColumnsTogether, insertLicenses, insertLtiCredentials, insertOrganisation,
  insertPortfolios, rollUpAnalytics, setLicenseQuantity,
} from './demo.repository.js';
import { generateAnalytics } from './generate-analytics.js';
import { generatePortfolios } from './generate-portfolios.js';
import { TeacherGenerator, iso, type SignedUpTeacher } from './generate-teachers.js';
import type { LicenseFill, OrganisationPlan } from './plan.js';
import type { Random } from './random.js';

const DAY = 86_400_000;
/** Teachers generated and written per round: bounded memory, few statements. */
const TEACHER_CHUNK = 5_000;

export interface SeededOrganisation {
  id: string;
  name: string;
  domain: string;
  members: number;
  users: number;
  libraries: number;
  memberships: number;
  books: number;
  events: number;
  /** Some signed-up, active teachers of the organisation. */
  signedUp: SignedUpTeacher[];
  /** Milliseconds spent per step (generation in JS, then each table's inserts), for the benchmark. */
  timings: Record<string, number>;
}

/**
 * Writes one generated organisation with its licences, teachers, libraries, books, admins, LTI
 * credentials, analytics history and student portfolios. Runs inside the caller's transaction.
 */
export async function seedOrganisation(
  trx: Kysely<DB>, rand: Random, plan: OrganisationPlan, reference: number, id = rand.id(), parentId: string | null = null,
): Promise<SeededOrganisation> {
  const created = iso(reference - 3 * 365 * DAY);
  await insertOrganisation(trx, {
    id, parent_id: parentId, name: plan.name, is_domain: plan.isDomain, org_libraries: plan.orgLibraries, student_portfolios: plan.studentPortfolios,
    visit_libraries: plan.visitLibraries, settings: JSON.stringify(plan.settings), created_at: created, updated_at: created,
  });
  const licenseIds = plan.licenses.map(() => rand.id());
  await insertLicenses(trx, plan.licenses.map((l, i) => ({
    id: licenseIds[i] as string, organisation_id: id, name: l.name, quantity: 0, book_quota: l.bookQuota,
    library_quota: l.libraryQuota, apply_to_all: l.applyToAll, created_at: created,
  })));

  const result: SeededOrganisation = { id, name: plan.name, domain: plan.domain, members: 0, users: 0, libraries: 0, memberships: 0, books: 0, events: 0, signedUp: [], timings: {} };
  const timed = async <T>(step: string, work: () => Promise<T> | T): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      result.timings[step] = (result.timings[step] ?? 0) + performance.now() - started;
    }
  };
  const generator = new TeacherGenerator(rand, id, plan, licenseIds, reference);
  let remaining = plan.teachers;
  let fixed = plan.fixedMembers;
  // Pipelined: while the server inserts one chunk (one statement), the next one is generated.
  let inserting: Promise<void> | null = null;
  while (remaining > 0 || fixed.length) {
    const count = Math.min(remaining, TEACHER_CHUNK);
    const chunk = await timed('generate', () => generator.chunk(count, fixed));
    if (inserting) await timed('insert', () => inserting);
    inserting = insertColumnsTogether(trx, [chunk.users, chunk.members, chunk.libraries, chunk.memberships, chunk.books]);
    // Awaited later; marked handled now so a failure during the next generation is not reported as unhandled.
    inserting.catch(() => undefined);
    // Let the driver send the statement before the next chunk occupies the event loop (PGlite runs it here).
    await timed('insert', () => new Promise((resolve) => setImmediate(resolve)));
    result.members += chunk.members.length;
    result.users += chunk.users.length;
    result.libraries += chunk.libraries.length;
    result.memberships += chunk.memberships.length;
    result.books += chunk.books.length;
    remaining -= count;
    fixed = [];
  }
  if (inserting) await timed('insert', () => inserting);
  result.signedUp = generator.signedUp;

  // Quantities follow what was assigned, so some licences are full and some nearly full.
  const allocated = await allocatedByLicense(trx, id);
  for (const [i, license] of plan.licenses.entries()) {
    const licenseId = licenseIds[i] as string;
    await setLicenseQuantity(trx, id, licenseId, quantityFor(license.fill, allocated.get(licenseId) ?? 0, rand));
  }

  const adminEmails = new Set<string>();
  const admins = [
    ...plan.admins,
    ...generator.signedUp.slice(plan.fixedMembers.length, plan.fixedMembers.length + plan.teacherAdmins),
  ].filter((a) => !adminEmails.has(a.email) && adminEmails.add(a.email));
  await insertAdmins(trx, admins.map((a) => ({ organisation_id: id, email: a.email, user_id: a.userId ?? null, created_at: created })));

  if (plan.lti) {
    await insertLtiCredentials(trx, { organisation_id: id, consumer_key: `${plan.domain.split('.')[0]}-${rand.hex(16)}`, consumer_secret: rand.hex(40), created_at: iso(reference - 90 * DAY) });
  }

  const analytics = generateAnalytics(rand, { organisationId: id, domain: plan.domain, teachers: generator.signedUp, reference, sessionsPerDay: plan.sessionsPerDay });
  for (;;) {
    if (plan.sessionsPerDay <= 0) break;
    const next = await timed('generate', () => analytics.next());
    if (next.done) break;
    await timed('analytics_events', () => insertColumns(trx, next.value));
    result.events += next.value.length;
  }
  await timed('analytics_daily', () => rollUpAnalytics(trx, id));

  if (plan.studentPortfolios && plan.portfolioExports > 0) {
    // Students and their published books; the export itself is built by the background job (portfolios module).
    await insertPortfolios(trx, generatePortfolios(rand, id, plan, generator.signedUp, reference));
  }
  return result;
}

function quantityFor(fill: LicenseFill, allocated: number, rand: Random): number {
  if (fill === 'full') return allocated;
  if (fill === 'nearly') return allocated + rand.int(2, 3);
  return Math.ceil(allocated * 1.3) + 5;
}
