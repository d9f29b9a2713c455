import {
  adminEmailsRefusal,
  adminEmailsSchema,
  DEFAULT_PAGE_SIZE,
  isProviderStaffEmail,
  normaliseEmail,
  PAGE_SIZES,
  type AdminEmailRules,
  type AdminEmailsRefusalCode,
  type ErrorCode,
  type AdminPage,
  type AdminsImported,
  type AdminsRemoved,
} from '@quire/core';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit, type AuditSystemActor } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './admins.repository.js';

/** Refusals the spec states as rules without texts (docs/libraries-api.md, "Admins"). */
const adminErrors = {
  sort: 'sort must be email or name',
  dir: 'dir must be asc or desc',
  pageSize: `pageSize must be one of ${PAGE_SIZES.join(', ')}`,
  page: 'page must be a whole number from 1',
} as const;

const MAX_EMAILS = 1000;

export interface ListAdminsInput {
  organisationId: string;
  search?: string | null;
  sort?: string | null;
  dir?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

/** getAdmins: one page of the organisation's admins, searched and sorted like the teachers list. */
export async function listAdmins(db: Kysely<DB>, actor: Actor, input: ListAdminsInput): Promise<AdminPage> {
  // Admins' e-mails are for admins: a library manager does not read them (docs/security.md).
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const sort = input.sort ?? 'email';
  if (sort !== 'email' && sort !== 'name') throw appError('validation_error', { message: adminErrors.sort });
  const dir = input.dir ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw appError('validation_error', { message: adminErrors.dir });
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize)) throw appError('validation_error', { message: adminErrors.pageSize });
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1) throw appError('validation_error', { message: adminErrors.page });
  const filter = { organisationId: input.organisationId, search: input.search ?? undefined };
  const [rows, total] = await Promise.all([
    repo.listAdmins(db, filter, { key: sort, dir }, { limit: pageSize, offset: (page - 1) * pageSize }),
    repo.countAdmins(db, filter),
  ]);
  const you = actor.email.toLowerCase();
  const admins = rows.map((r) => ({
    email: r.email,
    organisationId: r.organisation_id,
    organisationName: r.organisation_name,
    inherited: r.inherited,
    userId: r.user_id,
    memberId: r.member_id,
    displayName: r.display_name,
    isYou: r.email === you || r.user_id === actor.userId,
    twoStep: r.two_step,
  }));
  return { admins, total, page, pageSize };
}

/** Trimmed, lower-cased, deduplicated e-mails; refuses an empty, oversized or invalid list. */
function cleanEmails(emails: readonly string[]): string[] {
  const clean = [...new Set(emails.map(normaliseEmail).filter(Boolean))];
  if (clean.length === 0) throw appError('email_required');
  if (clean.length > MAX_EMAILS) throw appError('too_many_emails');
  return clean;
}

export interface ImportAdminsInput extends AdminEmailRules {
  organisationId: string;
  emails: string[];
}

/** The catalogue's code for each refusal of adminEmailsSchema (the same names, checked by the types). */
const ADMIN_EMAIL_REFUSALS = {
  email_required: 'email_required',
  invalid_email: 'invalid_email',
  provider_email: 'provider_email',
  district_sso: 'district_sso',
} as const satisfies Record<AdminEmailsRefusalCode, ErrorCode>;

/**
 * importAdmins: adds admins by e-mail. The list is checked by adminEmailsSchema of @quire/core, as the console
 * checks it (spec §5): an invalid, provider-domain or district-SSO address refuses the whole list.
 */
export async function importAdmins(db: Kysely<DB>, actor: Actor, input: ImportAdminsInput): Promise<AdminsImported> {
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  cleanEmails(input.emails);
  const parsed = adminEmailsSchema(input).safeParse(input.emails);
  if (!parsed.success) {
    const refusal = adminEmailsRefusal(parsed.error);
    const details = refusal.code === 'invalid_email' ? { invalidEmails: refusal.emails } : refusal.emails.length ? { emails: refusal.emails } : undefined;
    throw appError(ADMIN_EMAIL_REFUSALS[refusal.code], { message: refusal.message, details });
  }
  const emails = parsed.data;
  return db.transaction().execute(async (trx) => {
    const added = await repo.insertAdmins(trx, input.organisationId, emails);
    if (added.length) {
      await recordAudit(trx, actor, { organisationId: input.organisationId, action: 'admins.import', targetType: 'admin', targetIds: added });
    }
    return { added, existing: emails.filter((e) => !added.includes(e)) };
  });
}

/**
 * deleteAdmins: removes admins, never the organisation's last own admin (checked under a lock on its admins).
 * Provider staff do not count as the organisation's own: the organisation cannot add them back, so it
 * must not be left with staff alone (docs/libraries-api.md, "Admins").
 *
 * In a tree the same rule keeps every school an admin: a school's admins are its own and those of every
 * organisation above it, so a district that keeps one admin of its own keeps one for each of its schools. When a
 * school below has no admin but the district's (none of its own, none from higher up), the refusal names those
 * schools (`last_district_admin`, docs/districts.md).
 */
export async function deleteAdmins(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; emails: string[]; providerEmailDomain: string },
): Promise<AdminsRemoved> {
  const { organisation } = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const emails = cleanEmails(input.emails);
  return db.transaction().execute(async (trx) => {
    const removed = await removeKeepingOne(trx, { organisationId: input.organisationId, organisationName: organisation.name, emails, providerEmailDomain: input.providerEmailDomain });
    if (removed.length === 0) return { removed: [] };
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'admins.delete', targetType: 'admin', targetIds: removed,
      details: { removedSelf: removed.includes(actor.email.toLowerCase()) },
    });
    return { removed };
  });
}

/**
 * Removes the admins named, under a lock on the organisation's admins, unless that leaves it (or a school below it
 * that relies on it) without an admin of its own: then nothing is removed and the refusal says why.
 */
async function removeKeepingOne(
  trx: Transaction<DB>,
  input: { organisationId: string; organisationName: string; emails: readonly string[]; providerEmailDomain: string },
): Promise<string[]> {
  const own = (list: string[]) => list.filter((e) => !isProviderStaffEmail(e, input.providerEmailDomain));
  const current = await repo.lockAdmins(trx, input.organisationId);
  const removing = current.filter((e) => input.emails.includes(e));
  if (removing.length === 0) return [];
  const remaining = current.filter((e) => !input.emails.includes(e));
  const noneLeft = remaining.length === 0 || (own(current).length > 0 && own(remaining).length === 0);
  if (noneLeft) {
    const reliant = (await repo.listBelowWithOtherAdmins(trx, input.organisationId)).filter((o) => own(o.emails).length === 0);
    if (reliant.length > 0) throw lastDistrictAdmin(input.organisationName, reliant);
    throw appError('last_admin');
  }
  return repo.deleteAdmins(trx, input.organisationId, removing);
}

/** Who changed the admins when no person did: the identity provider, through a token (docs/provisioning.md). */
export interface ProvisionedChange {
  organisationId: string;
  email: string;
  /** Recorded with the audit event: how the change came (via, token, group). */
  details: Record<string, unknown>;
  /** Who the audit log names as the actor: the identity provider, or the roster import's job. */
  actor: AuditSystemActor;
}

/**
 * Makes `email` an admin because an identity provider's group of admins lists its user, in the caller's transaction.
 * The address rules of Add admins hold (spec §5: not provider staff, not a district-SSO address); a refusal changes
 * nothing. Recorded as `admins.import` with the identity provider (or the import) as actor. True when an admin was added, false when the address
 * was one already (the group then does not own it).
 */
export async function grantProvisionedAdmin(trx: Transaction<DB>, rules: AdminEmailRules, change: ProvisionedChange): Promise<boolean> {
  const parsed = adminEmailsSchema(rules).safeParse([change.email]);
  if (!parsed.success) {
    const refusal = adminEmailsRefusal(parsed.error);
    throw appError(ADMIN_EMAIL_REFUSALS[refusal.code], { message: refusal.message, details: { emails: refusal.emails } });
  }
  const added = await repo.insertAdmins(trx, change.organisationId, parsed.data);
  if (added.length) await recordAudit(trx, change.actor, { organisationId: change.organisationId, action: 'admins.import', targetType: 'admin', targetIds: added, details: change.details });
  return added.length > 0;
}

/**
 * Removes an admin a group of admins made, once its user left the group, in the caller's transaction. The last-admin
 * rule of Remove admin holds. Recorded as `admins.delete` with the identity provider (or the import) as actor.
 */
export async function revokeProvisionedAdmin(trx: Transaction<DB>, providerEmailDomain: string, change: ProvisionedChange): Promise<boolean> {
  const organisationName = (await repo.organisationName(trx, change.organisationId)) ?? change.organisationId;
  const removed = await removeKeepingOne(trx, { organisationId: change.organisationId, organisationName, emails: [change.email], providerEmailDomain });
  if (removed.length) await recordAudit(trx, change.actor, { organisationId: change.organisationId, action: 'admins.delete', targetType: 'admin', targetIds: removed, details: change.details });
  return removed.length > 0;
}

/** The refusal naming the schools that would be left without an admin (at most five by name). */
function lastDistrictAdmin(district: string, schools: Array<{ id: string; name: string }>) {
  const names = schools.slice(0, 5).map((s) => s.name);
  if (schools.length > names.length) names.push(`${schools.length - names.length} more`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const one = schools.length === 1;
  return appError('last_district_admin', {
    message: `${list} ${one ? 'has' : 'have'} no admins of ${one ? 'its' : 'their'} own and ${one ? 'relies' : 'rely'} on ${district}'s, so its last admin can't be removed. Add another admin to ${district} first.`,
    details: { schools: schools.map((s) => ({ id: s.id, name: s.name })) },
  });
}
