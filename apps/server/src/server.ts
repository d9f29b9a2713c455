import { openDatabase, DatabaseStartError, type Database } from './db/client.js';
import { ConfigError, loadEnv, publicUrl, RECOMMENDED_SCRYPT_LOG2_N, type Env } from './env.js';
import { resolveAuthSecret } from './modules/identity/auth-secret.js';

/**
 * Starts Quire: configuration, database, migrations, demo data, then the HTTP server.
 * Every start failure a person can fix ends with one line saying what to fix, and exit code 1.
 * The application's modules (Fastify, Better Auth, every feature) load only once the configuration and the
 * database are good, so a start that fails on either says so at once.
 */
function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function loadConfig(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/** The one line for a port or host the server cannot listen on, or null when the cause is not one a person can fix. */
function listenFailure(env: Env, code: string | undefined): string | null {
  if (code === 'EADDRINUSE') return `Port ${env.PORT} is already in use: stop the other process or set PORT.`;
  if (code === 'EACCES') return `Port ${env.PORT} needs more privileges on this machine: set PORT to 1024 or above.`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return `HOST ${env.HOST} is not an address of this machine: set HOST, e.g. 0.0.0.0.`;
  return null;
}

/**
 * Tries the port before the database opens and the application loads, so a port in use is said at once rather than
 * after a migration (the real listen at the end still reports the same lines, should the port be taken meanwhile).
 */
async function checkPort(env: Env): Promise<void> {
  if (env.PORT === 0) return;
  const { createServer } = await import('node:net');
  const line = await new Promise<string | null>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(listenFailure(env, error.code)));
    probe.listen({ host: env.HOST, port: env.PORT, exclusive: true }, () => probe.close(() => resolve(null)));
  });
  if (line) fail(line);
}

async function open(env: Env): Promise<Database> {
  try {
    return await openDatabase(env);
  } catch (error) {
    if (error instanceof DatabaseStartError) fail(error.message);
    throw error;
  }
}

async function main(): Promise<void> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let env = loadConfig();
  await checkPort(env);
  try {
    env = await resolveAuthSecret(env, print);
  } catch (error) {
    fail((error as Error).message);
  }
  // Before the demo seed, which hashes the demo admin's password at the configured cost.
  const { configurePasswordHashing, passwordHashingSettings } = await import('./modules/identity/password.js');
  configurePasswordHashing(passwordHashingSettings(env));
  if (env.PASSWORD_SCRYPT_LOG2_N < RECOMMENDED_SCRYPT_LOG2_N) {
    print(`PASSWORD_SCRYPT_LOG2_N is ${env.PASSWORD_SCRYPT_LOG2_N}: new password hashes are cheaper to guess than OWASP's recommendation (${RECOMMENDED_SCRYPT_LOG2_N}); for test runs only.`);
  }
  const database = await open(env);
  const [{ migrateToLatest }, { buildApp }, { drainThenClose }, { default: closeWithGrace }] = await Promise.all([
    import('./db/migrate.js'),
    import('./app.js'),
    import('./plugins/lifecycle.js'),
    import('close-with-grace'),
  ]);

  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close().catch(() => undefined);
    fail((error as Error).message);
  }

  let demo: { seeded: boolean; adminEmail: string; adminPassword: string; staffEmail: string } | null = null;
  if (env.NODE_ENV !== 'production' && env.DEMO_SEED) {
    const { seedDemoIfEmpty } = await import('./db/demo/seed-demo.js');
    demo = await seedDemoIfEmpty(database, env, print);
  }

  const app = await buildApp({ env, database });

  const closeAll = async () => {
    // Stops accepting connections, lets requests in flight finish, stops the job workers (onClose), then the database.
    await app.close();
    await database.close();
  };
  const drainMs = env.SHUTDOWN_DRAIN_SECONDS * 1000;
  // The drain comes on top of the time requests in flight and the job workers get to finish.
  const grace = closeWithGrace({ delay: drainMs + 15_000, logger: { error: (message: unknown) => app.log.error(message) } }, async ({ signal, err }) => {
    if (err) {
      app.log.error({ err }, 'shutting down after an unexpected error');
      await closeAll();
      return;
    }
    app.log.info(`${signal ?? 'shutdown'}: ${drainMs ? `answering /readyz 503 for ${env.SHUTDOWN_DRAIN_SECONDS} s, then ` : ''}closing`);
    // A signal is a planned stop (a rolling restart): the load balancer is told first (plugins/lifecycle.ts).
    await drainThenClose(app, { drainMs });
    await database.close();
  });

  let address: string;
  try {
    address = await app.listen({ host: env.HOST, port: env.PORT });
  } catch (error) {
    grace.uninstall();
    await closeAll().catch(() => undefined);
    const line = listenFailure(env, (error as NodeJS.ErrnoException).code);
    if (line) fail(line);
    throw error;
  }

  if (env.METRICS_PORT && app.metrics) {
    try {
      print(`Metrics at ${await app.metrics.listen(env.METRICS_HOST, env.METRICS_PORT)}/metrics`);
    } catch (error) {
      grace.uninstall();
      await closeAll().catch(() => undefined);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') fail(`METRICS_PORT ${env.METRICS_PORT} is already in use: stop the other process or set METRICS_PORT.`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') fail(`METRICS_HOST ${env.METRICS_HOST} is not an address of this machine: set METRICS_HOST, e.g. 127.0.0.1.`);
      throw error;
    }
  }

  const port = new URL(address).port;
  const local = env.HOST === '0.0.0.0' || env.HOST === '::' ? `http://localhost:${port}` : address;
  print(`${env.PRODUCT_NAME} is running at ${env.PUBLIC_URL ? publicUrl(env) : local} (${database.kind === 'pglite' ? `embedded database in ${env.DATA_DIR}` : 'PostgreSQL'}; Node.js ${process.version})`);
  if (demo && (demo.seeded || env.NODE_ENV === 'development')) {
    print(`Demo sign-in: ${demo.adminEmail} / ${demo.adminPassword}`);
    print(`Demo provider staff (may also remove signed-up teachers): ${demo.staffEmail} / ${demo.adminPassword}`);
  }
}

main().catch((error: unknown) => {
  fail(`${process.env.PRODUCT_NAME || 'Quire'} could not start: ${(error as Error).message ?? String(error)}`);
});
