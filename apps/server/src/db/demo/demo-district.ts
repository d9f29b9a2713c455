import type { Kysely } from 'kysely';
import { ROLE_LIBRARY_MANAGER } from '@quire/core';
import type { DB } from '../types.js';
import { giveLicense, insertAccounts, insertLicenses, insertUsers, teachersWithoutLicense } from './demo.repository.js';
import { iso } from './generate-teachers.js';
import type { OrganisationPlan } from './plan.js';
import { Random } from './random.js';
import { seedOrganisation, type SeededOrganisation } from './seed-organisation.service.js';

const DAY = 86_400_000;

/** Teachers of the main demo organisation who can sign in with the demo password (not admins). @internal */
export const DEMO_TEACHER_ACCOUNTS = [
  { email: 'teacher@maplegrove.example.org', name: 'Taylor Brooks', role: 600 },
  { email: 'manager@maplegrove.example.org', name: 'Morgan Reed', role: ROLE_LIBRARY_MANAGER },
] as const;

/**
 * A small school standing alone whose only admin is its own (with the demo password): neither the demo admin nor the
 * provider-staff account administers it. A test can change what applies to every admin of an organisation here (such
 * as requiring 2-step verification) without changing anything for the accounts the other tests sign in as. @internal
 */
export const DEMO_STANDALONE_SCHOOL = {
  name: 'Hazel Brook Primary School',
  domain: 'hazelbrook.example.org',
  admin: { email: 'office@hazelbrook.example.org', name: 'Harper Quinn' },
} as const;

/**
 * The licence Riverside holds for its schools and the seats of it each school has (docs/districts.md): each school
 * assigns `assign` of its teachers without a licence (fewer when it has fewer) and keeps `spare` seats free; the
 * district keeps `unallocated` seats to allocate. Riverside is a domain organisation (its own teachers hold its
 * apply-to-all licence), so it holds this one only to allocate.
 */
const DEMO_DISTRICT_LICENSE = {
  district: 'Riverside Unified School District',
  name: 'District Standard',
  bookQuota: 40,
  libraryQuota: 5,
  unallocated: 10,
  schools: [
    { name: 'Oakwood Elementary School', assign: 6, spare: 2 },
    { name: 'Willow Creek Primary School', assign: 2, spare: 2 },
  ],
} as const;

export interface DemoDistrictOptions {
  /** Teachers generated in the main organisation. */
  teachers: number;
  seed: number;
  adminEmail: string;
  adminName?: string;
  /**
   * A provider-staff account (an address of PROVIDER_EMAIL_DOMAIN) made admin of every demo school, so the
   * staff-only flows of spec §6 (Remove teacher of signed-up teachers, Delete account) can be tried; omitted: none.
   */
  staffEmail?: string;
  /** Stored password hash for the demo admin and demo teachers (hashed by the caller, outside the transaction). */
  passwordHash: string;
  /** Any instant of the day the history ends; defaults to today. Rows depend only on seed and this day. */
  reference?: Date;
  log?: (line: string) => void;
}

export interface DemoDistrict {
  adminUserId: string;
  organisations: SeededOrganisation[];
}

/** Midnight UTC of the given instant's day: the generator's clock, so one day's runs agree. */
export function referenceDay(at: Date = new Date()): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

/**
 * The demo: five organisations covering every case of the spec (the fifth, new, has no analytics yet), and a sixth
 * seeded apart (DEMO_STANDALONE_SCHOOL). Riverside Unified School District is a district over two schools (Oakwood and
 * Willow Creek); Maple Grove and Cedar Hill stand alone. The demo admin administers the district (so every school under it), Maple Grove, where
 * they also teach, and not Cedar Hill, to show the tenant boundary.
 */
function demoDistrictPlans(
  teachers: number,
  admin: { email: string; userId: string },
  demoTeachers: { email: string; name: string; role: number; userId: string }[],
  staff?: { email: string; userId: string },
): OrganisationPlan[] {
  const withStaff = (admins: { email: string; userId?: string }[]) => (staff ? [...admins, staff] : admins);
  const common = { fixedMembers: [], admins: [], teacherAdmins: 1, lti: false, isDomain: false, orgLibraries: false, studentPortfolios: false, visitLibraries: false, portfolioExports: 0 };
  const sessions = (n: number) => Math.min(400, Math.max(4, Math.round(n * 0.15)));
  const share = (n: number, f: number) => Math.max(12, Math.round(n * f));
  const riverside = share(teachers, 0.4);
  const oakwood = share(teachers, 0.2);
  const cedar = share(teachers, 0.12);
  return [
    {
      ...common,
      name: 'Maple Grove High School', domain: 'maplegrove.example.org', teachers,
      orgLibraries: true, visitLibraries: true, lti: true, teacherAdmins: 1,
      settings: { apps: { bitmoji: 1, giphy: -1, sketchfab: -1, googlemaps: 1 } },
      licenses: [
        { name: 'Premium', bookQuota: 1000, libraryQuota: null, applyToAll: false, share: 0.35, fill: 'nearly' },
        { name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false, share: 0.25, fill: 'full' },
        { name: 'Classroom', bookQuota: 20, libraryQuota: 2, applyToAll: false, share: 0.1, fill: 'roomy' },
      ],
      fixedMembers: [
        { email: admin.email, name: 'Demo Admin', userId: admin.userId, license: 0 },
        ...demoTeachers.map((t) => ({ email: t.email, name: t.name, userId: t.userId, role: t.role, license: 0 })),
      ],
      admins: withStaff([admin, { email: 'it.office@maplegrove.example.org' }]),
      sessionsPerDay: sessions(teachers + 3),
    },
    {
      ...common,
      name: 'Riverside Unified School District', domain: 'riverside.example.org', teachers: riverside,
      isDomain: true,
      settings: { apps: { canva: -1, bitmoji: -1 }, imageSearch: 'pixabay' },
      licenses: [{ name: 'District Premium', bookQuota: 1000, libraryQuota: null, applyToAll: true, share: 1, fill: 'roomy' }],
      admins: withStaff([admin]),
      sessionsPerDay: sessions(riverside),
    },
    {
      ...common,
      name: 'Oakwood Elementary School', parentName: 'Riverside Unified School District', domain: 'oakwood.example.org', teachers: oakwood,
      studentPortfolios: true, portfolioExports: 3,
      settings: { apps: { giphy: -1, adobe: 1 } },
      licenses: [
        { name: 'Unlimited Books', bookQuota: 1000, libraryQuota: null, applyToAll: false, share: 0.3, fill: 'roomy' },
        { name: 'Starter', bookQuota: 40, libraryQuota: 3, applyToAll: false, share: 0.4, fill: 'nearly' },
      ],
      admins: withStaff([admin]),
      sessionsPerDay: sessions(oakwood),
    },
    {
      ...common,
      name: 'Cedar Hill Middle School', domain: 'cedarhill.example.org', teachers: cedar,
      visitLibraries: true, teacherAdmins: 2,
      settings: { apps: {} },
      licenses: [{ name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false, share: 0.5, fill: 'nearly' }],
      admins: withStaff([]),
      sessionsPerDay: sessions(cedar),
    },
    {
      // Joined this term and not used yet: no session events, so its analytics show the empty state.
      ...common,
      name: 'Willow Creek Primary School', parentName: 'Riverside Unified School District', domain: 'willowcreek.example.org', teachers: 12,
      settings: { apps: {} },
      licenses: [{ name: 'Starter', bookQuota: 40, libraryQuota: 3, applyToAll: false, share: 0.5, fill: 'roomy' }],
      admins: withStaff([admin]),
      sessionsPerDay: 0,
    },
  ];
}

/** Writes the whole demo district in the caller's transaction. */
export async function seedDemoDistrict(trx: Kysely<DB>, options: DemoDistrictOptions): Promise<DemoDistrict> {
  const rand = new Random(`quire-demo:${options.seed}`);
  const reference = referenceDay(options.reference);
  const joined = iso(reference - 400 * DAY);
  const adminEmail = options.adminEmail.toLowerCase();
  const people = [
    { email: adminEmail, name: options.adminName ?? 'Demo Admin', role: 600, userId: rand.id(28) },
    ...DEMO_TEACHER_ACCOUNTS.map((t) => ({ ...t, role: t.role as number, userId: rand.id(28) })),
  ];
  // The staff account draws from its own stream, so a seed's other rows are the same with or without it.
  const staffRand = new Random(`quire-demo-staff:${options.seed}`);
  const staff = options.staffEmail ? { email: options.staffEmail.toLowerCase(), name: 'Quire Support', role: 600, userId: staffRand.id(28) } : undefined;
  const accounts = staff ? [...people, staff] : people;
  await insertUsers(trx, accounts.map((p) => ({ id: p.userId, name: p.name, email: p.email, emailVerified: true, image: null, createdAt: joined, updatedAt: joined })));
  // Better Auth's credential accounts: accountId is the user id, the password is our scrypt hash.
  await insertAccounts(trx, accounts.map((p) => ({
    id: p === staff ? staffRand.id(32) : rand.id(32), accountId: p.userId, providerId: 'credential', userId: p.userId, password: options.passwordHash,
    accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null,
    createdAt: joined, updatedAt: joined,
  })));
  const [admin, ...teachers] = people as [(typeof people)[number], ...typeof people];
  const organisations: SeededOrganisation[] = [];
  for (const plan of demoDistrictPlans(options.teachers, { email: admin.email, userId: admin.userId }, teachers, staff)) {
    const started = performance.now();
    const parentId = plan.parentName === undefined ? null : organisations.find((o) => o.name === plan.parentName)?.id;
    if (parentId === undefined) throw new Error(`Demo plan ${plan.name}: its parent ${plan.parentName} must be seeded before it`);
    const seeded = await seedOrganisation(trx, rand, plan, reference, rand.id(), parentId);
    organisations.push(seeded);
    options.log?.(`Demo district: ${seeded.name}: ${seeded.members} members, ${seeded.libraries} libraries, ${seeded.books} books, ${seeded.events} sessions (${Math.round(performance.now() - started)} ms)`);
  }
  await allocateDistrictLicense(trx, rand, organisations, iso(reference - 30 * DAY));
  organisations.push(await seedStandaloneSchool(trx, options, reference, joined));
  return { adminUserId: admin.userId, organisations };
}

/**
 * DEMO_STANDALONE_SCHOOL, after the rest and from its own random stream, so the other organisations' rows are the same
 * with or without it.
 */
async function seedStandaloneSchool(trx: Kysely<DB>, options: DemoDistrictOptions, reference: number, joined: string): Promise<SeededOrganisation> {
  const rand = new Random(`quire-demo-standalone:${options.seed}`);
  const school = DEMO_STANDALONE_SCHOOL;
  const userId = rand.id(28);
  await insertUsers(trx, [{ id: userId, name: school.admin.name, email: school.admin.email, emailVerified: true, image: null, createdAt: joined, updatedAt: joined }]);
  await insertAccounts(trx, [{
    id: rand.id(32), accountId: userId, providerId: 'credential', userId, password: options.passwordHash,
    accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null,
    createdAt: joined, updatedAt: joined,
  }]);
  const seeded = await seedOrganisation(trx, rand, {
    name: school.name, domain: school.domain, teachers: 10, isDomain: false, orgLibraries: false, studentPortfolios: false, visitLibraries: false,
    settings: { apps: {} }, lti: false, portfolioExports: 0, teacherAdmins: 0, sessionsPerDay: 2,
    licenses: [{ name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false, share: 0.5, fill: 'roomy' }],
    fixedMembers: [],
    admins: [{ email: school.admin.email, userId }],
  }, reference);
  options.log?.(`Demo district: ${seeded.name}: ${seeded.members} members, ${seeded.libraries} libraries, ${seeded.books} books, ${seeded.events} sessions`);
  return seeded;
}

/** Riverside's licence for its schools, allocated to each with some of its teachers on it (DEMO_DISTRICT_LICENSE). */
async function allocateDistrictLicense(trx: Kysely<DB>, rand: Random, organisations: SeededOrganisation[], created: string): Promise<void> {
  const plan = DEMO_DISTRICT_LICENSE;
  const idOf = (name: string) => {
    const found = organisations.find((o) => o.name === name);
    if (!found) throw new Error(`Demo district licence: ${name} is not seeded`);
    return found.id;
  };
  const districtId = idOf(plan.district);
  const licenseId = rand.id();
  const shares = [];
  for (const school of plan.schools) {
    const schoolId = idOf(school.name);
    const teachers = await teachersWithoutLicense(trx, schoolId, school.assign);
    shares.push({ schoolId, shareId: rand.id(), teachers, seats: teachers.length + school.spare });
  }
  const quota = { name: plan.name, book_quota: plan.bookQuota, library_quota: plan.libraryQuota, apply_to_all: false, created_at: created };
  const quantity = shares.reduce<number>((sum, s) => sum + s.seats, plan.unallocated);
  await insertLicenses(trx, [{ id: licenseId, organisation_id: districtId, quantity, ...quota }]);
  await insertLicenses(trx, shares.map((s) => ({
    id: s.shareId, organisation_id: s.schoolId, quantity: s.seats, ...quota, allocated_from_organisation_id: districtId, allocated_from_license_id: licenseId,
  })));
  for (const share of shares) await giveLicense(trx, share.schoolId, share.teachers, share.shareId);
}
