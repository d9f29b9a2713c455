import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this copy is on its way out: /readyz answers 503 and no connection is kept for another request. */
    lifecycle: { draining: boolean };
  }
}

/**
 * While the copy drains, every answer closes its connection: a load balancer's or browser's kept-alive connection
 * would otherwise carry the next request to a copy that is about to stop listening.
 */
export const lifecyclePlugin = fp(async (app) => {
  app.decorate('lifecycle', { draining: false });
  app.addHook('onSend', async (_request, reply) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
  });
});

/**
 * A graceful stop behind a load balancer (docs/scale-out.md). First the copy reports itself not ready while it keeps
 * serving, for `drainMs`: long enough for the balancer's health check to see it and send new requests to the other
 * copies. Only then does it stop listening; Fastify's close lets the requests in flight finish and stops the job
 * workers (their onClose hooks). Closing at once would refuse the requests the balancer sends before it notices.
 */
export async function drainThenClose(app: FastifyInstance, options: { drainMs: number }): Promise<void> {
  app.lifecycle.draining = true;
  if (options.drainMs > 0) await sleep(options.drainMs);
  await app.close();
}
