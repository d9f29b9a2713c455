import { validateOrganisationName } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './organisations.repository.js';

/** Renames the organisation: trimmed, 1 to 128 characters (spec §5 texts). Unchanged names write nothing. */
export async function renameOrganisation(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; name: string },
): Promise<{ id: string; name: string }> {
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const name = input.name.trim();
  const error = validateOrganisationName(name);
  if (error) throw appError('invalid_organisation_name', { message: error });
  return db.transaction().execute(async (trx) => {
    const current = await repo.lockOrganisationName(trx, input.organisationId);
    if (!current) throw appError('organisation_not_found');
    if (current.name === name) return current;
    const renamed = await repo.setOrganisationName(trx, input.organisationId, name);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'organisation.rename', targetType: 'organisation', targetIds: [input.organisationId],
      details: { from: current.name, to: name },
      oldValue: { name: current.name }, newValue: { name },
    });
    return renamed;
  });
}
