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
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
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
    twoStep: r.two_step_on ? ('on' as const) : ('off' as const),
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
  const own = (list: string[]) => list.filter((e) => !isProviderStaffEmail(e, input.providerEmailDomain));
  return db.transaction().execute(async (trx) => {
    const current = await repo.lockAdmins(trx, input.organisationId);
    const removing = current.filter((e) => emails.includes(e));
    if (removing.length === 0) return { removed: [] };
    const remaining = current.filter((e) => !emails.includes(e));
    const noneLeft = remaining.length === 0 || (own(current).length > 0 && own(remaining).length === 0);
    if (noneLeft) {
      const reliant = (await repo.listBelowWithOtherAdmins(trx, input.organisationId)).filter((o) => own(o.emails).length === 0);
      if (reliant.length > 0) throw lastDistrictAdmin(organisation.name, reliant);
      throw appError('last_admin');
    }
    const removed = await repo.deleteAdmins(trx, input.organisationId, removing);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'admins.delete', targetType: 'admin', targetIds: removed,
      details: { removedSelf: removed.includes(actor.email.toLowerCase()) },
    });
    return { removed };
  });
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
