import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import Provider, { type Configuration } from 'oidc-provider';
import { SMTPServer } from 'smtp-server';
import { PEER_PORT_RANGE } from './env.js';

/**
 * The real peers a sign-in run needs, started by the global setup before the server:
 * an SMTP server that keeps every mail as a file (read by support/mailbox.ts), and one OpenID
 * Connect provider standing in for both Google and Microsoft (two clients of one issuer).
 */


const OIDC_CLIENTS = {
  google: { id: 'quire-google', secret: 'quire-google-secret-for-tests-only' },
  office365: { id: 'quire-office365', secret: 'quire-office365-secret-for-tests-only' },
} as const;

/** Where received mail is written, one JSON file per message: { to: string[], raw: string }. */
export function mailDirectory(dataRoot: string): string {
  return join(dataRoot, 'mail');
}

export interface AuthPeers {
  /** Server settings that point it at the peers. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

async function freePort(taken: Set<number>): Promise<number> {
  for (let port = PEER_PORT_RANGE.first; port <= PEER_PORT_RANGE.last; port += 1) {
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((done) => {
      const probe = createServer();
      probe.once('error', () => done(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
    });
    if (free) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`No free port between ${PEER_PORT_RANGE.first} and ${PEER_PORT_RANGE.last}`);
}

function startSmtp(port: number, directory: string): Promise<SMTPServer> {
  mkdirSync(directory, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        const name = `${Date.now()}-${String(count).padStart(5, '0')}.json`;
        writeFileSync(join(directory, name), JSON.stringify({ to, raw: Buffer.concat(chunks).toString('utf8') }));
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * The stand-in provider. Its development login form takes any login: the login is the account's
 * e-mail, and a login starting with "unverified" gets `email_verified: false`. Its "[ Cancel ]"
 * link refuses consent (error=access_denied).
 */
function startOidc(port: number, consoleUrl: string): Promise<Server> {
  const issuer = `http://127.0.0.1:${port}`;
  const configuration: Configuration = {
    clients: [
      {
        client_id: OIDC_CLIENTS.google.id,
        client_secret: OIDC_CLIENTS.google.secret,
        redirect_uris: [`${consoleUrl}/identity/callback/google`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: OIDC_CLIENTS.office365.id,
        client_secret: OIDC_CLIENTS.office365.secret,
        redirect_uris: [`${consoleUrl}/sign-in/office-365`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    scopes: ['openid', 'email', 'profile', 'offline_access', 'User.Read'],
    features: { devInteractions: { enabled: true } },
    // The claims go into the ID token as well as userinfo, as Google's and Microsoft's do.
    conformIdTokenClaims: false,
    cookies: { keys: ['quire-e2e-oidc-cookie-key'] },
    async findAccount(_ctx, sub) {
      const email = sub.includes('@') ? sub.toLowerCase() : `${sub.toLowerCase()}@oidc.test`;
      const local = email.split('@')[0] ?? 'user';
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email,
            email_verified: !local.startsWith('unverified'),
            name: `Provider ${local}`,
            given_name: 'Provider',
            family_name: local,
          };
        },
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  return new Promise((resolve, reject) => {
    const server = provider.listen(port, '127.0.0.1', () => resolve(server)) as Server;
    server.once('error', reject);
  });
}

/** The page the product app's stand-in answers every request with (LTI launches and library visits land there). */
const PRODUCT_APP_PAGE = '<!doctype html><html lang="en"><title>Product app</title><main><h1>Product app</h1></main></html>';

/**
 * A stand-in for the product's app (APP_URL): a real local server, so a browser that follows the console's
 * redirects lands on a real page (a route answered by Playwright is not reliably reached after a cross-site
 * redirect from a form post in the headless shell).
 */
function startProductApp(port: number): Promise<Server> {
  const server = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PRODUCT_APP_PAGE);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

/** Starts the peers for a console that will listen at `consoleUrl`. */
export async function startAuthPeers(options: { consoleUrl: string; dataRoot: string }): Promise<AuthPeers> {
  const taken = new Set<number>();
  const smtpPort = await freePort(taken);
  const oidcPort = await freePort(taken);
  const appPort = await freePort(taken);
  const mailDir = mailDirectory(options.dataRoot);
  const smtp = await startSmtp(smtpPort, mailDir);
  // Workers inherit the environment the global setup leaves, like E2E_BASE_URL.
  process.env.E2E_MAIL_DIR = mailDir;
  const oidc = await startOidc(oidcPort, options.consoleUrl);
  const productApp = await startProductApp(appPort);
  const issuer = `http://127.0.0.1:${oidcPort}`;
  return {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      GOOGLE_OIDC_ISSUER: issuer,
      GOOGLE_OIDC_CLIENT_ID: OIDC_CLIENTS.google.id,
      GOOGLE_OIDC_CLIENT_SECRET: OIDC_CLIENTS.google.secret,
      OFFICE365_OIDC_ISSUER: issuer,
      OFFICE365_OIDC_CLIENT_ID: OIDC_CLIENTS.office365.id,
      OFFICE365_OIDC_CLIENT_SECRET: OIDC_CLIENTS.office365.secret,
      APP_URL: `http://127.0.0.1:${appPort}`,
      // The same stand-in by the console's host name: a product app on the console's site (the session cookie is
      // SameSite=Lax), allowed as one of the product's other origins (docs/lti.md "The product's app").
      PRODUCT_APP_ORIGINS: `http://localhost:${appPort}`,
    },
    async stop() {
      productApp.closeAllConnections();
      await new Promise<void>((done) => productApp.close(() => done()));
      await new Promise<void>((done) => oidc.close(() => done()));
      await new Promise<void>((done) => smtp.close(() => done()));
    },
  };
}
