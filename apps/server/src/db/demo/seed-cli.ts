import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadEnv } from '../../env.js';
import type { SeededOrganisation } from './seed-organisation.service.js';

const USAGE = `Usage: npm run seed -- [--teachers N] [--seed S]

On an empty database, seeds the demo district with N teachers in its main organisation.
Otherwise adds one generated organisation of N teachers, with their libraries and books.

Options:
  --teachers N   teachers to generate, 0 to 1000000 (default: DEMO_TEACHERS, 250)
  --seed S       seed of the generator, a whole number; the same seed gives the same data (default: 1)
  --help         show this help

Environment: DATABASE_URL (a PostgreSQL server) or DATA_DIR (embedded database),
DEMO_ADMIN_EMAIL and DEMO_ADMIN_PASSWORD (the demo admin).`;

class UsageError extends Error {}

function wholeNumber(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) throw new UsageError(`--${name} must be a whole number from 0 to ${max}, got '${value}'`);
  return Number(value);
}

async function main(argv: string[]): Promise<number> {
  let args: { teachers?: string; seed?: string; help?: boolean };
  try {
    ({ values: args } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { teachers: { type: 'string' }, seed: { type: 'string' }, help: { type: 'boolean' } } }));
  } catch (error) {
    return usageFailure((error as Error).message);
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const env = loadEnv();
  let teachers: number;
  let seed: number;
  try {
    teachers = wholeNumber('teachers', args.teachers, env.DEMO_TEACHERS, 1_000_000);
    seed = wholeNumber('seed', args.seed, 1, 2 ** 31 - 1);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.message);
    throw error;
  }

  // The database, the generator and the hashing load only once the options are good: a usage error answers at once.
  const [{ openDatabase }, { migrateToLatest }, { configurePasswordHashing, hashPassword, passwordHashingSettings }, { hasOrganisations }, { seedDemoDistrict }, { demoStaffEmail }, { SeedConflictError, seedGeneratedOrganisation }] =
    await Promise.all([
      import('../client.js'),
      import('../migrate.js'),
      import('../../modules/identity/password.js'),
      import('./demo.repository.js'),
      import('./demo-district.js'),
      import('./seed-demo.js'),
      import('./generated-organisation.js'),
    ]);
  configurePasswordHashing(passwordHashingSettings(env));
  // npm runs workspace scripts in the workspace folder; a relative DATA_DIR means where the command was typed, as for `npm start`.
  const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), env.DATA_DIR);
  const database = await openDatabase({ ...env, DATA_DIR: dataDir });
  try {
    await migrateToLatest(database.db);
    const where = database.kind === 'postgres' ? 'PostgreSQL' : `the embedded database in ${dataDir}`;
    const started = performance.now();
    let organisations: SeededOrganisation[];
    if (!(await hasOrganisations(database.db))) {
      const passwordHash = await hashPassword(env.DEMO_ADMIN_PASSWORD);
      const hashed = performance.now();
      console.log(`Seeding the demo district (${teachers} teachers in the main organisation, seed ${seed}) into ${where}…`);
      ({ organisations } = await database.db.transaction().execute((trx) =>
        seedDemoDistrict(trx, { teachers, seed, adminEmail: env.DEMO_ADMIN_EMAIL, staffEmail: demoStaffEmail(env), passwordHash, log: console.log })));
      console.log(`Demo admin: ${env.DEMO_ADMIN_EMAIL}, provider staff: ${demoStaffEmail(env)} (password from DEMO_ADMIN_PASSWORD); password hashing took ${((hashed - started) / 1000).toFixed(1)} s`);
    } else {
      console.log(`Adding a generated organisation of ${teachers} teachers (seed ${seed}) to ${where}…`);
      const organisation = await database.db.transaction().execute((trx) =>
        seedGeneratedOrganisation(trx, { seed, teachers, adminEmail: env.DEMO_ADMIN_EMAIL }));
      organisations = [organisation];
    }
    const seconds = (performance.now() - started) / 1000;
    for (const o of organisations) {
      console.log(`  ${o.name} (${o.id}): ${o.members} members, ${o.users} users, ${o.libraries} libraries, ${o.memberships} library memberships, ${o.books} books, ${o.events} sessions`);
      console.log(`    ms: ${Object.entries(o.timings).map(([step, ms]) => `${step} ${Math.round(ms)}`).join(', ')}`);
    }
    console.log(`Done in ${seconds.toFixed(1)} s.`);
    return 0;
  } catch (error) {
    if (error instanceof SeedConflictError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function usageFailure(message: string): number {
  console.error(`${message}\n\n${USAGE}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
