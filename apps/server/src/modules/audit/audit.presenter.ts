import {
  auditActions,
  auditActionText,
  isAuditAction,
  auditActorKindLabels,
  auditChangeText,
  auditTargetText,
  CSV_BOM,
  csvRow,
  type AuditEvent,
} from '@quire/core';
import type { AuditRow } from './audit.repository.js';

/** An entry as the API answers it: camelCase, with the plain words the screen and the CSV show. */
export function presentAuditEvent(row: AuditRow): AuditEvent {
  const targets = Array.isArray(row.targets) ? row.targets : [];
  // Every id the change touched is kept; the texts of the first ones (and of a qualifier such as the licence).
  const qualifier = isAuditAction(row.action) ? auditActions[row.action].qualifier : null;
  const targetCount = row.target_ids.length || targets.filter((t) => t.type !== qualifier).length;
  return {
    id: row.id,
    time: new Date(row.at).toISOString(),
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    actor: { id: row.actor_user_id, email: row.actor_email, name: row.actor_name, kind: row.actor_kind },
    action: row.action,
    actionText: auditActionText(row.action, targets),
    targets,
    targetCount,
    targetIds: row.target_ids,
    targetText: auditTargetText(row.action, targets, targetCount) || (row.target_ids.length ? row.target_ids.join(', ') : ''),
    oldValue: row.old_value ?? null,
    newValue: row.new_value ?? null,
    changeText: auditChangeText(row.old_value ?? null, row.new_value ?? null),
    details: row.details ?? {},
    ip: row.ip,
    userAgent: row.user_agent,
    outcome: row.outcome,
    errorCode: row.error_code,
  };
}

/** The columns of the export, in order; a district's adds the School each entry belongs to. */
function columns(district: boolean): string[] {
  return [
    'Time (UTC)',
    ...(district ? ['School'] : []),
    'Actor',
    'Actor e-mail',
    'Actor type',
    'Action',
    'Target',
    'Details',
    'IP',
    'Outcome',
    'Error code',
    'Action code',
    'Target ids',
    'User agent',
    'Entry id',
  ];
}

export function auditCsvHead(district: boolean): string {
  return CSV_BOM + csvRow(columns(district));
}

/** One record of the export: the screen's row (Time in ISO 8601 UTC), then what the screen shows only in the entry. */
export function auditCsvRecord(event: AuditEvent, district: boolean): string {
  return csvRow([
    event.time,
    ...(district ? [event.organisationName] : []),
    event.actor.name ?? '',
    event.actor.email ?? '',
    auditActorKindLabels[event.actor.kind],
    event.actionText,
    event.targetText,
    event.changeText,
    event.ip ?? '',
    event.outcome,
    event.errorCode ?? '',
    event.action,
    event.targetIds.join(' '),
    event.userAgent ?? '',
    event.id,
  ]);
}
