import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Actor } from '../access/actor.js';
import type { TeacherLibraries } from '@quire/core';
import { presentLibrary } from './libraries.presenter.js';
import * as repo from './libraries.repository.js';
import { requireTeacherScope } from './teacher-scope.js';

export interface TeacherInput {
  organisationId: string;
  teacherId: string;
}

async function list(db: Kysely<DB>, actor: Actor, input: TeacherInput, filter: Pick<repo.TeacherLibraryFilter, 'relation' | 'archived'>) {
  const { teacher } = await requireTeacherScope(db, actor, input, 'read');
  const viewerMemberIds = await repo.findMemberIdsOfPerson(db, input.organisationId, actor);
  const rows = await repo.listTeacherLibraries(db, { organisationId: input.organisationId, memberId: teacher.id, viewerMemberIds, ...filter });
  return rows.map((r) => presentLibrary(r, teacher.id));
}

/** GET {api}/{teacherId}: every library the teacher owns or joined, in the viewer's two groups. */
export async function getTeacherLibraries(db: Kysely<DB>, actor: Actor, input: TeacherInput): Promise<TeacherLibraries> {
  const all = await list(db, actor, input, { relation: 'all' });
  return { unarchived: all.filter((l) => !l.archivedAt), archived: all.filter((l) => l.archivedAt) };
}

/** GET {api}/{teacherId}/owned and /joined: the unarchived libraries of one relation. */
export async function getTeacherLibrariesBy(
  db: Kysely<DB>,
  actor: Actor,
  input: TeacherInput & { relation: 'owned' | 'joined' },
): Promise<Pick<TeacherLibraries, 'unarchived'>> {
  return { unarchived: await list(db, actor, input, { relation: input.relation, archived: false }) };
}
