import type { RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { countRequest, purgeEnded, readCount } from '../../db/rate-limit.repository.js';

type Done = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Ended windows are swept about once in this many counted requests. */
const SWEEP_EVERY = 200;
/** Counters are kept this long after their window began, then swept. */
const KEEP_MS = 60 * 60_000;

/**
 * A @fastify/rate-limit store over PostgreSQL (or PGlite): the counters live in `rate_limits`, so several
 * copies of the server share them (DESIGN.md, "Scale"). Each route has its own counters, as with the
 * plugin's in-memory store.
 */
class DatabaseRateLimitStore {
  private counted = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly prefix = '',
  ) {}

  incr(key: string, done: Done, timeWindow: number): void {
    const fullKey = `${this.prefix}${key}`;
    countRequest(this.db, fullKey, timeWindow)
      .then(async ({ hits, ttl }) => {
        this.counted += 1;
        if (this.counted % SWEEP_EVERY === 0) await purgeEnded(this.db, KEEP_MS);
        done(null, { current: hits, ttl });
      })
      .catch((error: unknown) => done(error as Error));
  }

  read(key: string, done: Done, timeWindow: number): void {
    readCount(this.db, `${this.prefix}${key}`, timeWindow)
      .then(({ hits, ttl }) => done(null, { current: hits, ttl }))
      .catch((error: unknown) => done(error as Error));
  }

  /** One store a route (the plugin calls this with the route's merged options): method and URL prefix the keys. */
  child(routeOptions: RouteOptions & { path: string; prefix: string }): DatabaseRateLimitStore {
    // At run time the plugin passes its merged options with the route under `routeInfo`.
    const route: { method?: string | string[]; url?: string } = (routeOptions as { routeInfo?: RouteOptions }).routeInfo ?? routeOptions;
    const method = [route.method ?? ''].flat().join(',');
    return new DatabaseRateLimitStore(this.db, `${method} ${route.url ?? ''}|`);
  }
}

/** The store class for @fastify/rate-limit's `store` option (the plugin constructs it itself). */
export function databaseRateLimitStore(db: Kysely<DB>) {
  return class extends DatabaseRateLimitStore {
    constructor() {
      super(db);
    }
  };
}
