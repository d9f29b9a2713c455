import { z } from 'zod';

/** GET /healthz: the process is up. */
export const livenessSchema = z.object({ status: z.literal('ok') });

/** GET /readyz: the database answers (200 ok) or not (503 unavailable), and which kind it is. */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
});
