import type { Database } from '../client.js';
import type { Env } from '../../env.js';
import { hashPassword } from '../../modules/identity/password.js';
import { hasOrganisations } from './demo.repository.js';
import { seedDemoDistrict } from './demo-district.js';

/** Seed of the district seeded on first start; the CLI takes another with --seed. */
const DEMO_SEED = 1;

export interface SeedDemoResult {
  seeded: boolean;
  adminEmail: string;
  adminPassword: string;
  /** The provider-staff admin (same password), who may also remove signed-up teachers (spec §6). */
  staffEmail: string;
}

/** The demo's provider-staff account: support@ the provider's e-mail domain. */
export function demoStaffEmail(env: Pick<Env, 'PROVIDER_EMAIL_DOMAIN'>): string {
  return `support@${env.PROVIDER_EMAIL_DOMAIN.toLowerCase()}`;
}

/**
 * Seeds the demo district into an empty database (no organisations yet) and otherwise leaves it
 * alone. Never seeds in production or with DEMO_SEED=false. The demo admin and the demo teachers
 * sign in with DEMO_ADMIN_PASSWORD, and so does a provider-staff admin (`demoStaffEmail`).
 */
export async function seedDemoIfEmpty(database: Database, env: Env, log: (line: string) => void): Promise<SeedDemoResult> {
  const adminEmail = env.DEMO_ADMIN_EMAIL.toLowerCase();
  const adminPassword = env.DEMO_ADMIN_PASSWORD;
  const staffEmail = demoStaffEmail(env);
  const skipped = { seeded: false, adminEmail, adminPassword, staffEmail };
  if (!env.DEMO_SEED || env.NODE_ENV === 'production') return skipped;
  if (await hasOrganisations(database.db)) return skipped;

  const started = performance.now();
  // Hashing is slow on purpose (scrypt); do it before the transaction opens.
  const passwordHash = await hashPassword(adminPassword);
  const seeded = await database.db.transaction().execute(async (trx) => {
    // Another copy of the server may have seeded meanwhile.
    if (await hasOrganisations(trx)) return false;
    await seedDemoDistrict(trx, { teachers: env.DEMO_TEACHERS, seed: DEMO_SEED, adminEmail, staffEmail, passwordHash, log });
    return true;
  });
  if (seeded) log(`Demo district seeded in ${((performance.now() - started) / 1000).toFixed(1)} s; sign in as ${adminEmail}`);
  return { ...skipped, seeded };
}
