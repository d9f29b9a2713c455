import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  ROSTER_HISTORY_SIZE, ROSTER_PREVIEW_ROWS, toCsv,
  type RosterCounts, type RosterError, type RosterHistory, type RosterImport, type RosterImportSummary, type RosterOrgLinks,
  type RosterOrgSetup, type RosterPreviewRow, type RosterUploadQuery,
} from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { fileRefusal, RosterFileError } from './oneroster-errors.js';
import { readRosterZip } from './oneroster-read.js';
import { displayName, existingKey, planRoster, type Plan, type PlanEntry, type RosterOptions, type StagedPerson } from './roster-plan.js';
import * as repo from './roster.repository.js';

/**
 * Rostering (docs/rostering.md): an admin uploads a OneRoster CSV zip, sees what it would change, and applies it (a
 * background job, roster.job.ts) or cancels it. Admins of the organisation only; every answer is about that
 * organisation and the ones under it.
 */

export interface RosterDeps {
  db: Kysely<DB>;
  /** Queues the apply job of an import. */
  queueApply: (organisationId: string, importId: string) => Promise<void>;
}

/** The uploaded zip, written to a temporary file as it arrived. */
export interface RosterUpload {
  path: string;
  bytes: number;
}

/** Counts and parse-error total kept with an import (the parse errors are the first rows of its error table). */
interface StoredCounts extends RosterCounts {
  parseErrors: number;
  /** Guardians, parents, relatives, proctors of the file (the aides the rule skips are added to make `skipped`). */
  others: number;
}

const notFound = () => appError('roster_import_not_found');

function optionsOf(query: RosterUploadQuery): RosterOptions {
  return {
    aides: query.aides, consoleAdmins: query.consoleAdmins === 'true', licence: query.licence, licenceName: query.licenceName,
    allOrNothing: query.allOrNothing === 'true',
  };
}

/** POST …/rostering/imports: reads the zip, stages its people and errors, and answers the preview. Nothing else changes. */
export async function uploadRoster(deps: RosterDeps, actor: Actor, organisationId: string, upload: RosterUpload, query: RosterUploadQuery): Promise<RosterImport> {
  try {
    await requireOrgAccess(deps.db, actor, organisationId, 'admin');
    let parsed;
    try {
      parsed = await readRosterZip(upload.path);
    } catch (error) {
      if (error instanceof RosterFileError) throw fileRefusal(error);
      throw error;
    }
    const id = randomUUID();
    const options = optionsOf(query);
    await deps.db.transaction().execute(async (trx) => {
      await repo.insertImport(trx, {
        id, organisationId, fileName: query.fileName, version: parsed.version, mode: parsed.mode, options, orgs: parsed.orgs,
        createdByUserId: actor.userId, createdByEmail: actor.email,
      });
      await repo.insertPeople(trx, organisationId, id, parsed.people);
      await repo.insertErrors(trx, organisationId, id, parsed.errors);
      await repo.saveResult(trx, organisationId, id, {
        counts: { ...emptyCounts(), students: parsed.students, skipped: parsed.others, others: parsed.others, parseErrors: parsed.errors.length } satisfies StoredCounts,
      });
    });
    // The plan works from the people just read rather than reading back the rows staged from them.
    await refreshPreview(deps.db, organisationId, id, parsed.people);
    return readImport(deps.db, organisationId, id);
  } finally {
    await rm(upload.path, { force: true });
  }
}

const emptyCounts = (): RosterCounts => ({ add: 0, update: 0, retire: 0, unchanged: 0, errors: 0, students: 0, skipped: 0 });

/** The plan of an import against the organisation as it is now; `staged`: its people when the caller has them already. */
export async function planImport(db: Kysely<DB>, organisationId: string, row: repo.ImportRow, staged?: readonly StagedPerson[]): Promise<Plan> {
  const people = staged ?? await repo.readPeople(db, organisationId, row.id);
  const [links, managed, tree] = await Promise.all([repo.readLinks(db, organisationId), repo.readManaged(db, organisationId), repo.treeOrganisations(db, organisationId)]);
  const inTree = new Set(tree.map((o) => o.id));
  // A link to an organisation that has since left the tree matches nothing.
  for (const [sourcedId, target] of links) if (!inTree.has(target)) links.delete(sourcedId);
  const emails = [...new Set(people.filter((p) => p.email).map((p) => p.email))];
  const existing = new Map((await repo.findExisting(db, [...inTree], emails)).map((m) => [existingKey(m.organisationId, m.email), m]));
  return planRoster({ mode: row.mode === 'delta' ? 'delta' : 'bulk', options: row.options as RosterOptions, people, links, managed, existing });
}

function previewRow(entry: PlanEntry, names: ReadonlyMap<string, string>): RosterPreviewRow {
  if (entry.kind === 'retire') {
    return {
      sourcedId: entry.managed.sourcedId, name: entry.managed.displayName, email: entry.managed.email, role: entry.managed.role,
      organisation: names.get(entry.managed.organisationId) ?? entry.managed.organisationId, changes: [],
    };
  }
  return {
    sourcedId: entry.person.sourcedId, name: displayName(entry.person), email: entry.person.email, role: entry.person.role,
    organisation: names.get(entry.organisationId) ?? entry.organisationId, changes: entry.changes,
  };
}

/**
 * Works the plan out again and keeps its counts, its first rows and its errors (the parse errors, then the plan's) with
 * the import. Called on upload, when the org links change, and by the apply job as it starts.
 */
async function refreshPreview(db: Kysely<DB>, organisationId: string, importId: string, staged?: readonly StagedPerson[]): Promise<Plan> {
  const row = await repo.findImport(db, organisationId, importId);
  if (!row) throw notFound();
  const plan = await planImport(db, organisationId, row, staged);
  const names = new Map((await repo.treeOrganisations(db, organisationId)).map((o) => [o.id, o.name]));
  const stored = row.counts as StoredCounts;
  const parseErrors = (await repo.readErrors(db, organisationId, importId)).slice(0, stored.parseErrors);
  const errors = [...parseErrors, ...plan.errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const kinds = { add: [] as PlanEntry[], update: [] as PlanEntry[], retire: [] as PlanEntry[] };
  for (const entry of plan.entries) kinds[entry.kind].push(entry);
  const counts: StoredCounts = {
    add: kinds.add.length, update: kinds.update.length, retire: kinds.retire.length, unchanged: plan.unchanged, errors: errors.length,
    students: stored.students, skipped: stored.others + plan.skippedAides, others: stored.others, parseErrors: stored.parseErrors,
  };
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('roster_import_errors').where('organisation_id', '=', organisationId).where('import_id', '=', importId).execute();
    await repo.insertErrors(trx, organisationId, importId, [...parseErrors, ...plan.errors]);
    await repo.saveResult(trx, organisationId, importId, {
      counts,
      preview: {
        add: kinds.add.slice(0, ROSTER_PREVIEW_ROWS).map((e) => previewRow(e, names)),
        update: kinds.update.slice(0, ROSTER_PREVIEW_ROWS).map((e) => previewRow(e, names)),
        retire: kinds.retire.slice(0, ROSTER_PREVIEW_ROWS).map((e) => previewRow(e, names)),
        errors: errors.slice(0, ROSTER_PREVIEW_ROWS),
      },
    });
  });
  return plan;
}

function presentSummary(row: repo.ImportRow): RosterImportSummary {
  const counts = row.counts as Partial<RosterCounts>;
  return {
    id: row.id,
    status: row.status as RosterImportSummary['status'],
    fileName: row.file_name,
    version: row.version,
    mode: row.mode === 'delta' ? 'delta' : 'bulk',
    createdBy: row.created_by_email,
    createdAt: new Date(row.created_at).toISOString(),
    appliedAt: row.applied_at ? new Date(row.applied_at).toISOString() : null,
    counts: { ...emptyCounts(), ...Object.fromEntries(Object.entries(counts).filter(([key]) => key in emptyCounts())) },
    progress: { done: row.done, total: row.total },
  };
}

async function readImport(db: Kysely<DB>, organisationId: string, importId: string): Promise<RosterImport> {
  const row = await repo.findImport(db, organisationId, importId);
  if (!row) throw notFound();
  const links = await repo.readLinks(db, organisationId);
  const preview = row.preview as Partial<RosterImport['preview']>;
  return {
    ...presentSummary(row),
    options: row.options as RosterOptions,
    preview: { add: preview.add ?? [], update: preview.update ?? [], retire: preview.retire ?? [], errors: preview.errors ?? [] },
    orgs: (row.orgs as Array<{ sourcedId: string; name: string; type: string }>).map((o) => ({ ...o, organisationId: links.get(o.sourcedId) ?? null })),
  };
}

export async function getImport(db: Kysely<DB>, actor: Actor, organisationId: string, importId: string): Promise<RosterImport> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  return readImport(db, organisationId, importId);
}

export async function listHistory(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<RosterHistory> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  return { imports: (await repo.listImports(db, organisationId, ROSTER_HISTORY_SIZE)).map(presentSummary) };
}

/** POST …/imports/{id}/preview: the preview again (after the org links changed). Only while the import is a preview. */
export async function previewAgain(db: Kysely<DB>, actor: Actor, organisationId: string, importId: string): Promise<RosterImport> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const row = await repo.findImport(db, organisationId, importId);
  if (!row) throw notFound();
  if (row.status === 'preview') await refreshPreview(db, organisationId, importId);
  return readImport(db, organisationId, importId);
}

/**
 * POST …/imports/{id}/apply: queues the apply job. A second click (or a second tab) finds the import queued, applying or
 * applied and answers it as it is: it is applied once. With all-or-nothing, a file with errors is refused.
 */
export async function applyImport(deps: RosterDeps, actor: Actor, organisationId: string, importId: string): Promise<RosterImport> {
  await requireOrgAccess(deps.db, actor, organisationId, 'admin');
  const row = await repo.findImport(deps.db, organisationId, importId);
  if (!row) throw notFound();
  if (row.status === 'cancelled') throw appError('roster_import_closed');
  if (row.status === 'preview') {
    const plan = await refreshPreview(deps.db, organisationId, importId);
    const stored = (await repo.findImport(deps.db, organisationId, importId))!.counts as StoredCounts;
    if ((row.options as RosterOptions).allOrNothing && stored.errors > 0) throw appError('roster_import_has_errors');
    const moved = await deps.db.transaction().execute(async (trx) => {
      if (!(await repo.moveImport(trx, organisationId, importId, ['preview'], 'queued'))) return false;
      await repo.saveResult(trx, organisationId, importId, { done: 0, total: plan.entries.length });
      await recordAudit(trx, actor, { organisationId, action: 'rostering.import.applied', targetType: 'roster_import', targetIds: [importId], details: { fileName: row.file_name, ...stored } });
      return true;
    });
    if (moved) await deps.queueApply(organisationId, importId);
  }
  return readImport(deps.db, organisationId, importId);
}

/** POST …/imports/{id}/cancel: nothing is applied and the staged people are dropped. Cancelling twice answers the same. */
export async function cancelImport(db: Kysely<DB>, actor: Actor, organisationId: string, importId: string): Promise<RosterImport> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const row = await repo.findImport(db, organisationId, importId);
  if (!row) throw notFound();
  if (row.status !== 'cancelled') {
    await db.transaction().execute(async (trx) => {
      if (!(await repo.moveImport(trx, organisationId, importId, ['preview'], 'cancelled'))) throw appError('roster_import_closed');
      await repo.deletePeople(trx, organisationId, importId);
      await recordAudit(trx, actor, { organisationId, action: 'rostering.import.cancelled', targetType: 'roster_import', targetIds: [importId], details: { fileName: row.file_name } });
    });
  }
  return readImport(db, organisationId, importId);
}

/** GET …/imports/{id}/errors.csv: every error of the import (file, line, column, reason), formula-safe; toCsv writes the one BOM. */
export async function errorsCsv(db: Kysely<DB>, actor: Actor, organisationId: string, importId: string): Promise<{ filename: string; body: string }> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const row = await repo.findImport(db, organisationId, importId);
  if (!row) throw notFound();
  const errors: RosterError[] = await repo.readErrors(db, organisationId, importId);
  const body = toCsv([['file', 'line', 'column', 'reason'], ...errors.map((e) => [e.file, e.line, e.column, e.reason])]);
  return { filename: `roster-errors-${row.created_at.toISOString().slice(0, 10)}.csv`, body };
}

export async function readOrgSetup(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<RosterOrgSetup> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const [links, organisations] = await Promise.all([repo.readLinks(db, organisationId), repo.treeOrganisations(db, organisationId)]);
  return { links: [...links].map(([sourcedId, target]) => ({ sourcedId, organisationId: target })).sort((a, b) => a.sourcedId.localeCompare(b.sourcedId)), organisations };
}

/** PUT …/rostering/orgs: the whole list of links. Each must point to this organisation or one under it (400 otherwise). */
export async function saveOrgLinks(db: Kysely<DB>, actor: Actor, organisationId: string, body: RosterOrgLinks): Promise<RosterOrgSetup> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const tree = new Set((await repo.treeOrganisations(db, organisationId)).map((o) => o.id));
  if (body.links.some((l) => !tree.has(l.organisationId))) throw appError('roster_org_unknown');
  const unique = [...new Map(body.links.map((l) => [l.sourcedId, l])).values()];
  await db.transaction().execute(async (trx) => {
    await repo.replaceLinks(trx, organisationId, unique);
    await recordAudit(trx, actor, { organisationId, action: 'rostering.orgs.updated', details: { links: unique.length } });
  });
  return readOrgSetup(db, actor, organisationId);
}
