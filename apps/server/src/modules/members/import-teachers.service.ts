import { randomUUID } from 'node:crypto';
import { grantInOrder, invalidEmailsText, isProviderStaffEmail, isValidEmail, normaliseEmail, type ImportTeachersResult } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
// Seats are counted and locked the same way as in licence assignment.
import { countAllocated, lockLicenses } from '../licenses/licenses.repository.js';
import * as repo from './members.repository.js';

export interface ImportTeachersInput {
  organisationId: string;
  emails: string[];
  /** Optional licence per e-mail (e-mail -> licence id); only new members receive one. */
  licenses?: Record<string, string>;
  providerEmailDomain: string;
}

/** Normalises and dedupes the list (spec §5); 400 naming the invalid entries when any is invalid. */
function normaliseImportList(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  const invalid: string[] = [];
  for (const raw of emails) {
    const email = normaliseEmail(raw);
    if (!email || seen.has(email)) continue;
    seen.add(email);
    if (!isValidEmail(email)) invalid.push(email);
  }
  if (invalid.length) throw appError('invalid_emails', { message: invalidEmailsText(invalid.length), details: { invalidEmails: invalid } });
  if (seen.size === 0) throw appError('no_emails');
  return [...seen];
}

/**
 * Import teachers: new e-mails become pending members (role -600); existing members (active, removed
 * or students) are reported and left as they are, so importing the same list twice changes nothing.
 * Requested licences go to new members in list order while each licence has seats (spec §5). One
 * transaction, one statement per step.
 */
export async function importTeachers(db: Kysely<DB>, actor: Actor, input: ImportTeachersInput): Promise<ImportTeachersResult> {
  const { organisation } = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const emails = normaliseImportList(input.emails);
  const staff = isProviderStaffEmail(actor.email, input.providerEmailDomain);
  // The console offers Import only without a domain licence; the server holds the same line.
  if (organisation.is_domain && !staff) throw appError('domain_organisation');
  const requested = new Map<string, string>();
  for (const [email, licenseId] of Object.entries(input.licenses ?? {})) {
    if (licenseId) requested.set(normaliseEmail(email), licenseId);
  }

  return db.transaction().execute(async (trx) => {
    const existing = await repo.findMembersByEmail(trx, input.organisationId, emails);
    const existingEmails = new Set(existing.map((m) => m.email));
    const fresh = emails.filter((e) => !existingEmails.has(e));

    const licenseIds = [...new Set(fresh.map((e) => requested.get(e)).filter((id): id is string => Boolean(id)))];
    const licenses = await lockLicenses(trx, input.organisationId, licenseIds);
    if (licenses.length !== licenseIds.length) throw appError('license_not_found');
    if (licenseIds.length && (organisation.is_domain || licenses.some((l) => l.apply_to_all))) {
      throw appError('licenses_not_granted');
    }
    const allocated = await countAllocated(trx, input.organisationId, licenseIds);
    const seats = new Map(licenses.map((l) => [l.id, l.quantity - (allocated.get(l.id) ?? 0)]));

    // The rule the console shows while ticking (grantInOrder in @quire/core): in list order while seats remain.
    const requests = fresh.flatMap((email) => {
      const licenseId = requested.get(email);
      return licenseId ? [{ email, licenseId }] : [];
    });
    const { granted: grantedRequests, notGranted } = grantInOrder(requests, seats);
    const licensesNotGranted: ImportTeachersResult['licensesNotGranted'] = notGranted;
    const grantedTo = new Map(grantedRequests.map((r) => [r.email, r.licenseId]));
    const rows = fresh.map((email) => ({ id: randomUUID(), email, licenseId: grantedTo.get(email) ?? null }));

    const inserted = await repo.insertPendingMembers(trx, input.organisationId, rows);
    const insertedEmails = new Set(inserted.map((m) => m.email));
    // A concurrent import may have created some of them first: those count as existing.
    const lost = fresh.filter((e) => !insertedEmails.has(e));
    const raced = lost.length ? await repo.findMembersByEmail(trx, input.organisationId, lost) : [];
    const order = new Map(emails.map((e, i) => [e, i]));
    const byOrder = (a: { email: string }, b: { email: string }) => (order.get(a.email) ?? 0) - (order.get(b.email) ?? 0);
    const newMembers = inserted.map((m) => ({ id: m.id, email: m.email })).sort(byOrder);
    const existingMembers = [...existing, ...raced].map((m) => ({ id: m.id, email: m.email })).sort(byOrder);

    const granted: Record<string, number> = {};
    for (const row of rows) if (row.licenseId && insertedEmails.has(row.email)) granted[row.licenseId] = (granted[row.licenseId] ?? 0) + 1;
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.import', targetType: 'member', targetIds: newMembers.map((m) => m.id),
      details: { existing: existingMembers.length, licensesGranted: granted, licensesNotGranted },
    });
    return { newMembers, existingMembers, licensesNotGranted };
  });
}
