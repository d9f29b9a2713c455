import type { Migration } from 'kysely';
import * as m0001 from './0001-initial.js';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
};
