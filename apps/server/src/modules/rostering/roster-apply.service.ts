import { randomUUID } from 'node:crypto';
import type { AdminEmailRules, AuditAction } from '@quire/core';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { recordAudit, type AuditSystemActor } from '../access/audit.js';
import { grantProvisionedAdmin, revokeProvisionedAdmin } from '../admins/admins.service.js';
import { countAllocated, lockLicenses } from '../licenses/licenses.repository.js';
import { restoreMembers, revokeMembers } from '../members/members.repository.js';
import { displayName, wantsConsoleAdmin, type ExistingMember, type PlanEntry, type RosterOptions, type StagedPerson } from './roster-plan.js';
import * as repo from './roster.repository.js';
import { planImport } from './roster.service.js';

/**
 * The apply job's work: the plan worked out again from the staged people and the organisation as it is now, then
 * applied in batches, each batch one transaction that also moves the import's progress on. A restart part-way loses
 * at most the batch in flight (rolled back); the retry plans again, finds what was done already unchanged, and does
 * the rest. Retiring is the Teachers screen's Remove teacher (members repository: Inactive, the licence given back,
 * books and libraries kept); nothing is deleted. Admins an import made go through the admins module's own rules.
 */

/**
 * Plan entries per transaction, by database. On PostgreSQL a batch costs a few dozen statements whatever its size (a
 * statement per kind of write, an audit entry per action and organisation), so a bigger batch means fewer of them for a
 * district: 50,000 new members were 100 batches of about 45 statements, each a round trip that waits its turn on a
 * busy machine; other requests have connections of their own meanwhile. PGlite has one session, held by the batch's
 * transaction for as long as it runs, and every other request waits for it: batches stay short there.
 */
export function applyBatchSize(kind: 'pglite' | 'postgres'): number {
  return kind === 'postgres' ? 5000 : 500;
}

export interface ApplyDeps {
  db: Kysely<DB>;
  adminRules: AdminEmailRules;
  /** Plan entries per transaction (applyBatchSize); 500 when not given. */
  batchSize?: number;
}

interface Batch {
  trx: Transaction<DB>;
  organisationId: string;
  importId: string;
  options: RosterOptions;
  rules: AdminEmailRules;
  actor: AuditSystemActor;
  /** Member ids per audit action and member organisation, recorded at the end of the batch. */
  audit: Map<string, { action: AuditAction; organisationId: string; ids: string[]; changes: Record<string, string[]> }>;
  /**
   * The batch's member writes, gathered entry by entry and written set by set at its end (a statement per kind and
   * organisation, not per member: per-member statements cost a district whose staff all change a minute and more).
   * Memberships given up: a retire (recorded only when it did remove someone) or the old school of a move (always).
   */
  revokes: Array<{ organisationId: string; memberId: string; move: boolean }>;
  contacts: repo.MemberContact[];
  restores: Array<{ organisationId: string; memberId: string }>;
  inserts: Array<{ id: string; organisationId: string; email: string; displayName: string; licenseId: string | null }>;
  /** Console admins made or taken back, in file order, once the member writes are done (they touch only the admins). */
  adminChanges: Array<() => Promise<void>>;
  managed: Parameters<typeof repo.upsertManaged>[1][number][];
  /** Console admins to grant once the batch's new member rows exist. */
  grants: Array<{ row: Parameters<typeof repo.upsertManaged>[1][number]; email: string }>;
}

function note(batch: Batch, action: AuditAction, organisationId: string, memberId: string, changes?: string[]) {
  const key = `${action} ${organisationId}`;
  const entry = batch.audit.get(key) ?? { action, organisationId, ids: [], changes: {} };
  entry.ids.push(memberId);
  if (changes?.length) entry.changes[memberId] = changes;
  batch.audit.set(key, entry);
}

/** Makes or takes back the console admin an import gives an administrator; a refusal (a provider address, the last admin) leaves it as it is. */
async function syncAdmin(batch: Batch, organisationId: string, email: string, had: boolean, wants: boolean, previous?: { organisationId: string; email: string }): Promise<boolean> {
  const details = { via: 'roster', importId: batch.importId };
  let has = had;
  try {
    if (had && (!wants || previous)) {
      const from = previous ?? { organisationId, email };
      await revokeProvisionedAdmin(batch.trx, batch.rules.providerEmailDomain, { organisationId: from.organisationId, email: from.email, details, actor: batch.actor });
      has = false;
    }
    if (wants && !has) has = await grantProvisionedAdmin(batch.trx, batch.rules, { organisationId, email, details, actor: batch.actor });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  return has;
}

/** Takes over a member the organisation already has (added by hand), or queues a new one. Returns the member id. */
function placeMember(batch: Batch, person: StagedPerson, organisationId: string, existing: ExistingMember | null | undefined): string {
  if (existing) {
    batch.contacts.push({ organisationId, memberId: existing.id, email: person.email, displayName: displayName(person) });
    if (existing.revoked) batch.restores.push({ organisationId, memberId: existing.id });
    return existing.id;
  }
  const id = randomUUID();
  batch.inserts.push({ id, organisationId, email: person.email, displayName: displayName(person), licenseId: null });
  return id;
}

function planEntry(batch: Batch, entry: PlanEntry): void {
  if (entry.kind === 'retire') {
    const { managed } = entry;
    batch.revokes.push({ organisationId: managed.organisationId, memberId: managed.memberId, move: false });
    if (managed.consoleAdmin) {
      batch.adminChanges.push(async () => {
        const still = await syncAdmin(batch, managed.organisationId, managed.email, true, false);
        await repo.setConsoleAdmin(batch.trx, batch.organisationId, managed.sourcedId, still);
      });
    }
    return;
  }
  const { person, organisationId } = entry;
  const wants = wantsConsoleAdmin(batch.options, person.role);
  if (entry.kind === 'add') {
    const memberId = placeMember(batch, person, organisationId, entry.existing);
    note(batch, 'rostering.member.added', organisationId, memberId, entry.changes);
    const row = { organisationId: batch.organisationId, sourcedId: person.sourcedId, memberOrganisationId: organisationId, memberId, role: person.role, consoleAdmin: false, importId: batch.importId };
    batch.managed.push(row);
    if (wants) batch.grants.push({ row, email: person.email });
    return;
  }
  const { managed } = entry;
  let memberId = managed.memberId;
  if (entry.changes.includes('organisation')) {
    batch.revokes.push({ organisationId: managed.organisationId, memberId: managed.memberId, move: true });
    memberId = placeMember(batch, person, organisationId, entry.existing);
  } else {
    if (entry.changes.includes('email') || entry.changes.includes('name')) {
      batch.contacts.push({ organisationId, memberId, email: person.email, displayName: displayName(person) });
    }
    if (managed.revoked) batch.restores.push({ organisationId, memberId });
  }
  note(batch, 'rostering.member.updated', organisationId, memberId, entry.changes);
  const row = { organisationId: batch.organisationId, sourcedId: person.sourcedId, memberOrganisationId: organisationId, memberId, role: person.role, consoleAdmin: false, importId: batch.importId };
  batch.managed.push(row);
  if (entry.changes.includes('organisation')) {
    // The admin of the old organisation goes with the old membership; the new one is granted once the member exists.
    if (managed.consoleAdmin) {
      batch.adminChanges.push(async () => {
        await syncAdmin(batch, managed.organisationId, managed.email, true, false);
      });
    }
    if (wants) batch.grants.push({ row, email: person.email });
    return;
  }
  const previous = entry.changes.includes('email') && managed.consoleAdmin ? { organisationId: managed.organisationId, email: managed.email } : undefined;
  if (managed.consoleAdmin || wants) {
    batch.adminChanges.push(async () => {
      row.consoleAdmin = await syncAdmin(batch, organisationId, person.email, managed.consoleAdmin, wants, previous);
    });
  }
}

/** Member ids by their organisation, in the order given. */
function byOrganisation(rows: ReadonlyArray<{ organisationId: string; memberId: string }>): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const { organisationId, memberId } of rows) {
    const ids = grouped.get(organisationId);
    if (ids) ids.push(memberId);
    else grouped.set(organisationId, [memberId]);
  }
  return grouped;
}

/** The licence rule for the batch's new members: seats granted in file order while the licence has them. */
async function grantLicences(batch: Batch): Promise<void> {
  const { options } = batch;
  if (options.licence === 'none' || batch.inserts.length === 0) return;
  const organisations = [...new Set(batch.inserts.map((r) => r.organisationId))];
  const licences = await repo.licencesOf(batch.trx, organisations);
  for (const organisationId of organisations) {
    const own = licences.filter((l) => l.organisation_id === organisationId);
    const chosen = options.licence === 'named' ? own.find((l) => l.name.trim().toLowerCase() === options.licenceName.trim().toLowerCase()) : own.length === 1 ? own[0] : undefined;
    if (!chosen) continue;
    const [locked] = await lockLicenses(batch.trx, organisationId, [chosen.id]);
    if (!locked) continue;
    let seats = locked.quantity - ((await countAllocated(batch.trx, organisationId, [chosen.id])).get(chosen.id) ?? 0);
    for (const row of batch.inserts) {
      if (row.organisationId !== organisationId || seats <= 0) continue;
      row.licenseId = chosen.id;
      seats -= 1;
    }
  }
}

/**
 * Writes what the batch's entries gathered, in the order the entries would have written it one by one: memberships
 * given up first (so a move frees nothing it then needs), then the new addresses and names, the members brought back,
 * the new members with their licences, the console admins, and who the import manages; then the audit entries.
 */
async function finishBatch(batch: Batch): Promise<void> {
  const { trx } = batch;
  const removed = new Set<string>();
  for (const [organisationId, ids] of byOrganisation(batch.revokes)) {
    for (const id of await revokeMembers(trx, organisationId, ids)) removed.add(`${organisationId} ${id}`);
  }
  for (const { organisationId, memberId, move } of batch.revokes) {
    if (move) note(batch, 'rostering.member.retired', organisationId, memberId, ['organisation']);
    else if (removed.has(`${organisationId} ${memberId}`)) note(batch, 'rostering.member.retired', organisationId, memberId);
  }
  await repo.updateMemberContacts(trx, batch.contacts);
  for (const [organisationId, ids] of byOrganisation(batch.restores)) await restoreMembers(trx, organisationId, ids);
  await grantLicences(batch);
  await repo.insertMembers(trx, batch.inserts);
  for (const change of batch.adminChanges) await change();
  for (const { row, email } of batch.grants) row.consoleAdmin = await syncAdmin(batch, row.memberOrganisationId, email, false, true);
  await repo.upsertManaged(trx, batch.managed);
  for (const { action, organisationId, ids, changes } of batch.audit.values()) {
    await recordAudit(trx, batch.actor, { organisationId, action, targetType: 'member', targetIds: ids, details: { importId: batch.importId, ...(Object.keys(changes).length ? { changes } : {}) } });
  }
}

/** Applies one import; does nothing for an import that is not queued or being applied (already done, cancelled). */
export async function applyRoster(deps: ApplyDeps, organisationId: string, importId: string): Promise<{ applied: number } | null> {
  const row = await repo.findImport(deps.db, organisationId, importId);
  if (!row || (row.status !== 'queued' && row.status !== 'applying')) return null;
  await repo.moveImport(deps.db, organisationId, importId, ['queued', 'applying'], 'applying');
  const plan = await planImport(deps.db, organisationId, row);
  let done = row.done;
  await repo.saveResult(deps.db, organisationId, importId, { total: done + plan.entries.length });
  const actor: AuditSystemActor = { kind: 'job', id: 'roster-import', name: `Roster import ${row.file_name}`, email: row.created_by_email };
  const size = deps.batchSize ?? applyBatchSize('pglite');
  for (let start = 0; start < plan.entries.length; start += size) {
    const entries = plan.entries.slice(start, start + size);
    await deps.db.transaction().execute(async (trx) => {
      const batch: Batch = {
        trx, organisationId, importId, options: row.options as RosterOptions, rules: deps.adminRules, actor, audit: new Map(),
        revokes: [], contacts: [], restores: [], inserts: [], adminChanges: [], managed: [], grants: [],
      };
      for (const entry of entries) planEntry(batch, entry);
      await finishBatch(batch);
      done += entries.length;
      await repo.saveResult(trx, organisationId, importId, { done });
    });
  }
  await deps.db.transaction().execute(async (trx) => {
    await repo.moveImport(trx, organisationId, importId, ['applying'], 'applied', { appliedAt: true });
    await repo.deletePeople(trx, organisationId, importId);
  });
  return { applied: plan.entries.length };
}

/** Marks an import whose job failed for good (its retries used up): the history shows it failed. */
export async function failRoster(db: Kysely<DB>, organisationId: string, importId: string): Promise<void> {
  await repo.moveImport(db, organisationId, importId, ['queued', 'applying'], 'failed');
}
