import { z } from 'zod';

/** GET /healthz: the process is up. */
export const livenessSchema = z.object({ status: z.literal('ok') });

/**
 * GET /readyz: the database answers (200 ok) or not (503 unavailable), or the copy is stopping (503 draining: a load
 * balancer takes it out of rotation while it finishes its requests), and which kind of database it is.
 */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable', 'draining']),
  database: z.enum(['pglite', 'postgres']),
});
