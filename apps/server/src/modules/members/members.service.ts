import { AUDIT_TARGET_TEXTS_MAX, DEFAULT_PAGE_SIZE, isProviderStaffEmail, ROLE_LIBRARY_MANAGER, ROLE_TEACHER, type BookCounts, type MembersChanged, type MembershipRole, type MembersPage, type TeachersListParams } from '@quire/core';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import { checkSessionActor, type Actor, type SessionRef } from '../access/actor.js';
import { recordAudit, recordingRefusal, type AuditSystemActor } from '../access/audit.js';
import { orgAccessRow, organisationForbidden, readAccessRow, requireOrgAccess, sessionOrgAccessRow, type OrgAccess } from '../access/org-access.js';
import { countOwnedBooks } from '../libraries/book-counts.repository.js';
import { presentMember } from './members.presenter.js';
import * as repo from './members.repository.js';
import { decodeCursor, encodeCursor, isDataException } from './teachers-cursor.js';
import * as listRepo from './teachers-list.repository.js';
import { readTeachersPage } from './teachers-page.repository.js';
import { isDistrictFilter, type TeacherFilter, type TeacherRow, type TeacherSort, type TeacherWindow } from './teachers-list.repository.js';

/** Texts of refusals the spec does not word (see docs/teachers-api.md). */
const memberErrors = {
  removeNotAllowed: 'Only pending teachers can be removed from this organisation',
  removeNotAllowedDomain: 'Teachers cannot be removed from a domain organisation',
  roleInactive: "An inactive teacher's role cannot be changed",
} as const;

/**
 * The list query of the core contract (search, filters, sort, page, pageSize, after/before cursors) for one
 * organisation and tab. With a cursor, `page` is only echoed (the page number the console shows).
 */
export type ListTeachersInput = TeacherFilter & Omit<TeachersListParams, 'pageSize'> & { pageSize?: number };

/** The list's filter and order as the repositories take them (the page, the export and the bulk actions share them). */
export function teacherQueryOf(input: ListTeachersInput): { filter: TeacherFilter; sort: TeacherSort } {
  return {
    filter: {
      organisationId: input.organisationId,
      status: input.status,
      search: input.search,
      signedUp: input.signedUp,
      license: input.license,
      certification: input.certification,
      ...(input.view === 'district' ? { view: 'district' as const, ...(input.school ? { school: input.school } : {}) } : {}),
    },
    sort: { key: input.sort ?? 'email', dir: input.dir ?? 'asc' },
  };
}

/**
 * The teachers (Active) or removed teachers (Inactive) list; one page when page, pageSize or a cursor is given.
 * A page is one statement that also decides access and reads the total (teachers-list.repository.ts).
 */
/**
 * A page of the Teachers list (or, for an admin asking for no page, the whole list). The caller is an actor, or the
 * session reference of the Teachers route, whose session is read in the page's own statement (one round trip for
 * session, access, page and total: docs/performance-log.md) and refused after it as the actor hook would refuse it.
 */
export async function listTeachers(db: Kysely<DB>, caller: Actor | SessionRef, input: ListTeachersInput): Promise<MembersPage> {
  if (input.after && input.before) throw appError('invalid_cursor');
  const { filter, sort } = teacherQueryOf(input);
  const district = isDistrictFilter(filter);
  const paged = input.page !== undefined || input.pageSize !== undefined || input.after !== undefined || input.before !== undefined;
  // Library managers read the list a page at a time, never all of it at once (docs/security.md).
  if (!paged) {
    const access = 'token' in caller ? sessionOrgAccessRow(db, caller.token, input.organisationId) : orgAccessRow(db, caller, input.organisationId);
    const { level, actor_id: actorId } = await readAccessRow(db, access);
    if ('token' in caller) checkSessionActor(caller, actorId);
    if (!level) throw organisationForbidden();
    if (district && level !== 'admin') throw appError('admin_required');
    if (level === 'admin') {
      const rows = await listRepo.listTeachers(db, filter, sort);
      return { members: rows.map(presentMember), total: rows.length };
    }
  }
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const offset = ((input.page ?? 1) - 1) * pageSize;
  const window: TeacherWindow = input.after
    ? { limit: pageSize, after: decodeCursor(input.after, sort, district) }
    : input.before
      ? { limit: pageSize, before: decodeCursor(input.before, sort, district) }
      : { limit: pageSize, offset };
  let result;
  try {
    // A session's page statement is compiled once per shape (the route's); an actor's access is a row built here.
    const pageCaller = 'token' in caller ? { token: caller.token } : { access: orgAccessRow(db, caller, input.organisationId) };
    result = await readTeachersPage(db, pageCaller, filter, sort, window);
  } catch (error) {
    if ((input.after || input.before) && isDataException(error)) throw appError('invalid_cursor');
    throw error;
  }
  if ('token' in caller) checkSessionActor(caller, result.actorId);
  if (!result.level) throw organisationForbidden();
  // A district's list spans its schools: its admins only (a library manager's role is one school's).
  if (district && result.level !== 'admin') throw appError('admin_required');
  const { rows, more } = result;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const cursor = (row: TeacherRow | undefined) => (row ? encodeCursor(sort, { key: row.seek_key, email: row.seek_email, id: row.seek_id }, district) : null);
  const hasPrevious = 'before' in window ? more : 'after' in window || offset > 0;
  const hasNext = 'before' in window ? true : more;
  const page = 'offset' in window ? (input.page ?? 1) : input.page;
  return {
    members: rows.map(presentMember),
    total: result.total,
    ...(page !== undefined ? { page } : {}),
    pageSize,
    nextCursor: hasNext ? cursor(last) : null,
    previousCursor: hasPrevious ? cursor(first) : null,
  };
}

/** Books in the teacher's own libraries (spec: owned, private, total). */
export async function getBookCounts(db: Kysely<DB>, actor: Actor, input: { organisationId: string; memberId: string }): Promise<BookCounts> {
  await requireOrgAccess(db, actor, input.organisationId, 'read');
  const [member] = await repo.findMembers(db, input.organisationId, [input.memberId]);
  if (!member) throw appError('teacher_not_found');
  return countOwnedBooks(db, input.organisationId, member.id);
}

export interface MembersInput {
  organisationId: string;
  memberIds: string[];
  /** Provider staff are recognised by this e-mail domain. */
  providerEmailDomain: string;
}

/** All the members, or 404 naming none of another organisation's. */
async function requireMembers(db: Kysely<DB>, organisationId: string, memberIds: readonly string[]) {
  const unique = [...new Set(memberIds)];
  const members = await repo.findMembers(db, organisationId, unique);
  if (members.length !== unique.length) throw appError('teacher_not_found');
  return members;
}

/**
 * Remove teacher (spec §6): provider staff may remove anyone; others only pending teachers, and never
 * in a domain organisation.
 */
function requireRemovable(actor: Actor, input: MembersInput, access: OrgAccess, members: repo.MemberSummary[]): void {
  if (isProviderStaffEmail(actor.email, input.providerEmailDomain)) return;
  if (access.organisation.is_domain) throw appError('remove_not_allowed', { message: memberErrors.removeNotAllowedDomain });
  if (members.some((m) => !m.pending)) throw appError('remove_not_allowed');
}

/** Remove teacher and delete: admin access, every member found, and each removable; a refusal is audited as `action`. */
async function requireRemovableMembers(db: Kysely<DB>, actor: Actor, input: MembersInput, action: 'members.revoke' | 'members.delete') {
  const access = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const members = await requireMembers(db, input.organisationId, input.memberIds);
  const refusal = { organisationId: input.organisationId, action, targetType: 'member', targetIds: members.map((m) => m.id) };
  await recordingRefusal(db, actor, refusal, ['remove_not_allowed'], async () => requireRemovable(actor, input, access, members));
  return members;
}

/** A member as an audit entry names them: the name and the e-mail. */
function memberLabel(m: { email: string; display_name: string }): string {
  return m.display_name ? `${m.display_name} <${m.email}>` : m.email;
}

const roleName = (role: number) => (role === ROLE_LIBRARY_MANAGER ? 'Library Manager' : role === ROLE_TEACHER ? 'Teacher' : String(role));

/** Remove teacher: the members move from Active to Inactive (revoked_at set) and give back their licence. */
export async function revokeMembership(db: Kysely<DB>, actor: Actor, input: MembersInput): Promise<MembersChanged> {
  const members = await requireRemovableMembers(db, actor, input, 'members.revoke');
  return db.transaction().execute(async (trx) => {
    const changed = await repo.revokeMembers(trx, input.organisationId, members.map((m) => m.id));
    const freed = members.filter((m) => changed.includes(m.id) && m.license_id).map((m) => ({ memberId: m.id, licenseId: m.license_id }));
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.revoke', targetType: 'member', targetIds: changed, details: { freedLicenses: freed },
      oldValue: { status: 'Active' }, newValue: { status: 'Inactive' },
    });
    return { memberIds: changed };
  });
}

/** Mark as Active: removed members come back to the Active list (without a licence). */
export async function grantMembership(db: Kysely<DB>, actor: Actor, input: Omit<MembersInput, 'providerEmailDomain'>): Promise<MembersChanged> {
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const members = await requireMembers(db, input.organisationId, input.memberIds);
  return db.transaction().execute(async (trx) => {
    const changed = await repo.restoreMembers(trx, input.organisationId, members.map((m) => m.id));
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.grant', targetType: 'member', targetIds: changed,
      oldValue: { status: 'Inactive' }, newValue: { status: 'Active' },
    });
    return { memberIds: changed };
  });
}

/** Deletes memberships outright (the same permission as Remove teacher). */
export async function deleteMemberships(db: Kysely<DB>, actor: Actor, input: MembersInput): Promise<MembersChanged> {
  const members = await requireRemovableMembers(db, actor, input, 'members.delete');
  return db.transaction().execute(async (trx) => {
    const deleted = await repo.deleteMembers(trx, input.organisationId, members.map((m) => m.id));
    // The rows are gone: their texts are given, not read.
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.delete', targetType: 'member', targetIds: deleted,
      targets: members.filter((m) => deleted.includes(m.id)).slice(0, AUDIT_TARGET_TEXTS_MAX).map((m) => ({ type: 'member', id: m.id, label: memberLabel(m) })),
      details: { emails: members.map((m) => m.email) },
    });
    return { memberIds: deleted };
  });
}

/** Assign / Remove as Library Manager: only 400 <-> 600, and only with orgLibraries on. */
export async function updateMembershipRole(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; userId: string; role: number },
): Promise<MembershipRole> {
  const { organisation } = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  if (input.role !== ROLE_LIBRARY_MANAGER && input.role !== ROLE_TEACHER) throw appError('invalid_role');
  if (!organisation.org_libraries) throw appError('org_libraries_off');
  const member = await repo.findMemberByIdOrUser(db, input.organisationId, input.userId);
  if (!member) throw appError('teacher_not_found');
  if (member.pending || member.role < 0) throw appError('teacher_pending');
  if (member.revoked_at) throw appError('teacher_inactive', { message: memberErrors.roleInactive });
  return db.transaction().execute(async (trx) => {
    await repo.setMemberRole(trx, input.organisationId, member.id, input.role);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.role', targetType: 'member', targetIds: [member.id],
      details: { from: member.role, to: input.role },
      oldValue: { role: roleName(member.role) }, newValue: { role: roleName(input.role) },
    });
    return { memberId: member.id, role: input.role };
  });
}

/**
 * Assign / Remove as Library Manager because an identity provider's group of library managers lists (or stopped
 * listing) a provisioned teacher, in the caller's transaction: recorded as `members.role` with the identity provider as
 * actor. A pending teacher (not signed up) keeps their pending role; `pendingRole` says what they will be at sign-up,
 * and the record says so (`details.pending`).
 */
export async function setProvisionedLibraryManager(
  trx: Transaction<DB>,
  change: { organisationId: string; memberId: string; manager: boolean; pending: boolean; from: number; actor: AuditSystemActor; details: Record<string, unknown> },
): Promise<void> {
  const to = change.manager ? ROLE_LIBRARY_MANAGER : ROLE_TEACHER;
  if (!change.pending) await repo.setMemberRole(trx, change.organisationId, change.memberId, to);
  const from = change.pending ? (change.manager ? ROLE_TEACHER : ROLE_LIBRARY_MANAGER) : change.from;
  await recordAudit(trx, change.actor, {
    organisationId: change.organisationId, action: 'members.role', targetType: 'member', targetIds: [change.memberId],
    details: { ...change.details, from, to, ...(change.pending ? { pending: true } : {}) },
    oldValue: { role: roleName(from) }, newValue: { role: roleName(to) },
  });
}
