import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/** A person at the test identity provider. */
interface OidcPerson {
  email: string;
  emailVerified: boolean;
  name: string;
}

/**
 * A local OpenID Connect provider standing in for Google and Microsoft in tests. Each sign-in ends
 * the way `nextOutcome` says: as `person`, or refused by the user (access_denied).
 */
export interface TestOidcProvider {
  issuer: string;
  nextOutcome: { person: OidcPerson } | { deny: true };
  close(): Promise<void>;
}

export async function startTestOidcProvider(options: {
  port: number;
  clients: Array<{ clientId: string; clientSecret: string; redirectUri: string }>;
}): Promise<TestOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const people = new Map<string, OidcPerson>();
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [c.redirectUri],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    scopes: ['openid', 'email', 'profile', 'User.Read'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified, name: person.name }),
      };
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => false },
    cookies: { keys: ['test-oidc-cookie-key'] },
  });
  const state: TestOidcProvider = {
    issuer,
    nextOutcome: { deny: true },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  // The "user" at the provider: signs in and consents, or refuses, as the test set up.
  provider.use(async (ctx, next) => {
    if (!ctx.path.startsWith('/interaction/')) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const outcome = state.nextOutcome;
    if ('deny' in outcome) {
      await provider.interactionFinished(ctx.req, ctx.res, { error: 'access_denied', error_description: 'End-User aborted interaction' });
      return;
    }
    const accountId = `sub-${outcome.person.email}`;
    people.set(accountId, outcome.person);
    const grant = new provider.Grant({ accountId, clientId: details.params.client_id ?? '' });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return state;
}
