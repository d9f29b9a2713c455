import type * as Core from '@quire/core';
import type { ZodType } from 'zod';

/**
 * A schema from @quire/core: zod's classic build, or zod/mini for the few answers /sign-in parses before it shows its
 * choices (console configuration, session, sign-in methods), which come with the first download.
 */
export interface ContractSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: Error };
}

/**
 * An answer's contract: a schema from @quire/core, or a function that loads it (lazyContract). Code in the first
 * download (the session, the shell, the sign-in pages) passes lazy contracts for every other answer, so zod's classic
 * build and the schemas arrive in a chunk of their own, when the first of those answers is asked for, instead of
 * delaying the first screen (docs/performance-log.md, "First load").
 */
export type Contract<T> = ContractSchema<T> | (() => Promise<ZodType<T>>);

export function resolveContract<T>(contract: Contract<T>): ContractSchema<T> | Promise<ZodType<T>> {
  // A zod schema is an object; a lazy contract is a function.
  return typeof contract === 'function' ? contract() : contract;
}

let core: Promise<typeof Core> | undefined;

/** The schemas' chunk, downloaded once and shared; a failed download is tried again by the next caller. */
function loadCore(): Promise<typeof Core> {
  core ??= import('@quire/core').catch((error: unknown) => {
    core = undefined;
    throw error;
  });
  return core;
}

/** Starts downloading the schemas now, beside the first requests, rather than when their first answer arrives. */
export function preloadContracts(): void {
  loadCore().catch(() => undefined);
}

/** A contract picked from @quire/core when first used; later uses share the loaded schema. */
export function lazyContract<T>(pick: (core: typeof Core) => ZodType<T>): () => Promise<ZodType<T>> {
  let loaded: Promise<ZodType<T>> | undefined;
  return () =>
    (loaded ??= loadCore()
      .then(pick)
      .catch((error: unknown) => {
        // A failed download is tried again by the next request.
        loaded = undefined;
        throw error;
      }));
}
