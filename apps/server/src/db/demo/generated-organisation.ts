import type { Kysely } from 'kysely';
import type { DB } from '../types.js';
import { findUserIdByEmail, organisationExists } from './demo.repository.js';
import { referenceDay } from './demo-district.js';
import type { OrganisationPlan } from './plan.js';
import { Random } from './random.js';
import { seedOrganisation, type SeededOrganisation } from './seed-organisation.service.js';

const TOWNS = ['Lakeside', 'Brookfield', 'Hillcrest', 'Westbrook', 'Pine Valley', 'Fairview', 'Northgate', 'Silver Creek', 'Harbor View', 'Elmwood'];
const KINDS = ['High School', 'Middle School', 'Elementary School', 'Academy', 'Unified School District'];

export class SeedConflictError extends Error {
  override name = 'SeedConflictError';
}

/** The organisation the CLI and the benchmark add for a seed: same seed, same organisation (and ids). */
function generatedOrganisationPlan(seed: number, teachers: number, admin: { email: string; userId?: string } | null): OrganisationPlan {
  const rand = new Random(`quire-org-name:${seed}`);
  const town = rand.pick(TOWNS);
  const kind = rand.pick(KINDS);
  return {
    name: `${town} ${kind}`,
    domain: `${town.toLowerCase().replace(/[^a-z]/g, '')}-${seed}.example.org`,
    teachers,
    isDomain: false, orgLibraries: true, studentPortfolios: false, visitLibraries: true, lti: false,
    settings: { apps: { giphy: -1 } },
    licenses: [
      { name: 'Premium', bookQuota: 1000, libraryQuota: null, applyToAll: false, share: 0.4, fill: 'nearly' },
      { name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false, share: 0.3, fill: 'roomy' },
    ],
    fixedMembers: [],
    admins: admin ? [admin] : [],
    teacherAdmins: 2,
    sessionsPerDay: Math.min(400, Math.max(4, Math.round(teachers * 0.15))),
    portfolioExports: 0,
  };
}

/** @internal */
export function generatedOrganisationId(seed: number): string {
  return new Random(`quire-org:${seed}`).id();
}

/**
 * Adds one generated organisation of `teachers` teachers to a database that already has data, in the
 * caller's transaction. The demo admin, when that user exists, administers it too.
 */
export async function seedGeneratedOrganisation(
  trx: Kysely<DB>,
  options: { seed: number; teachers: number; adminEmail?: string; reference?: Date },
): Promise<SeededOrganisation> {
  const id = generatedOrganisationId(options.seed);
  if (await organisationExists(trx, id)) {
    throw new SeedConflictError(`An organisation generated with seed ${options.seed} already exists; choose another --seed.`);
  }
  const adminUserId = options.adminEmail ? await findUserIdByEmail(trx, options.adminEmail) : null;
  const admin = options.adminEmail && adminUserId ? { email: options.adminEmail.toLowerCase(), userId: adminUserId } : null;
  const plan = generatedOrganisationPlan(options.seed, options.teachers, admin);
  return seedOrganisation(trx, new Random(`quire-org-data:${options.seed}`), plan, referenceDay(options.reference), id);
}
