/** The few parts of oidc-provider (which ships no types) the identity tests use. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    path: string;
    req: IncomingMessage;
    res: ServerResponse;
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface InteractionDetails {
    uid: string;
    params: Record<string, string | undefined>;
    prompt: { name: string };
  }

  interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: new (init: { accountId: string; clientId: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResult, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
