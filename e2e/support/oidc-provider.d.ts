// The package ships no types; this declares the part the stand-in provider uses.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  export interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    claims?: Record<string, string[]>;
    scopes?: string[];
    features?: Record<string, { enabled: boolean }>;
    conformIdTokenClaims?: boolean;
    cookies?: { keys?: string[] };
    findAccount?(ctx: unknown, sub: string): Promise<Account | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    listen(port: number, host: string, callback: () => void): Server;
  }
}
