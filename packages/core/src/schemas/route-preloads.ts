import { z } from 'zod';

/** A file of the console's build that a page may name: a hashed script or style sheet under /static. */
const buildFile = (extension: 'js' | 'css') => z.string().regex(new RegExp(`^/static/[\\w.-]+\\.${extension}$`));

/**
 * dist/route-preloads.json, written by the console's build (apps/web/build/route-preloads.ts) and read by the server
 * (apps/server/src/plugins/web-console.ts): for a deep link matching `pattern` (a regular expression over the path),
 * the scripts and style sheets its screen needs beyond what index.html loads.
 */
export const routePreloadsSchema = z.object({
  routes: z
    .array(
      z.object({
        pattern: z.string().min(1).max(200),
        scripts: z.array(buildFile('js')).max(200),
        styles: z.array(buildFile('css')).max(50),
      }),
    )
    .max(100),
});
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;
