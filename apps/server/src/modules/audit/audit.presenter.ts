import {
  auditActions,
  auditActionText,
  isAuditAction,
  auditActorKindLabels,
  auditChangeText,
  auditTargetText,
  CSV_BOM,
  csvField,
  csvRow,
  type AuditActorKind,
  type AuditEvent,
} from '@quire/core';
import type { AuditExportRow, AuditRow } from './audit.repository.js';

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

/** What an action brings to every record of it, worked out once per action and export (the catalogue is fixed). */
interface ActionCells {
  qualifier: string | null;
  /** The Action cell when it does not depend on the entry (no qualifier), and the Action code cell. */
  text: string | null;
  code: string;
}

/**
 * Writes the export's records: the screen's row (Time in ISO 8601 UTC), then what the screen shows only in the entry,
 * each cell as csvRow writes it. The words of an action, of an actor kind, and their cells are made once per export,
 * not once per entry: an export of a million entries has a few dozen actions.
 */
export class AuditCsvWriter {
  readonly #district: boolean;
  readonly #actions = new Map<string, ActionCells>();
  readonly #kinds = new Map<AuditActorKind, string>();

  constructor(district: boolean) {
    this.#district = district;
  }

  #action(action: string): ActionCells {
    let cells = this.#actions.get(action);
    if (!cells) {
      const qualifier = isAuditAction(action) ? auditActions[action].qualifier : null;
      cells = { qualifier, text: qualifier ? null : csvField(auditActionText(action)), code: csvField(action) };
      this.#actions.set(action, cells);
    }
    return cells;
  }

  #kind(kind: AuditActorKind): string {
    let cell = this.#kinds.get(kind);
    if (cell === undefined) {
      cell = csvField(auditActorKindLabels[kind]);
      this.#kinds.set(kind, cell);
    }
    return cell;
  }

  /** One record with its CRLF: the same text as auditCsvRecord(presentAuditEvent(row)) (audit.presenter.test.ts). */
  record(row: AuditExportRow): string {
    const targets = Array.isArray(row.targets) ? row.targets : [];
    const action = this.#action(row.action);
    const targetCount = row.target_ids.length || targets.filter((t) => t.type !== action.qualifier).length;
    const oldValue = row.old_value ?? null;
    const newValue = row.new_value ?? null;
    return (
      // created_at to the microsecond: its millisecond part is what Date's toISOString writes (it truncates).
      `${row.at.slice(0, 23)}Z,${this.#district ? `${csvField(row.organisation_name)},` : ''}${csvField(row.actor_name)},${csvField(row.actor_email)},` +
      `${this.#kind(row.actor_kind)},${action.text ?? csvField(auditActionText(row.action, targets))},` +
      `${csvField(auditTargetText(row.action, targets, targetCount) || row.target_ids.join(', '))},` +
      `${oldValue === null && newValue === null ? '' : csvField(auditChangeText(oldValue, newValue))},${csvField(row.ip)},${row.outcome},` +
      `${csvField(row.error_code)},${action.code},${csvField(row.target_ids.join(' '))},${csvField(row.user_agent)},${row.id}\r\n`
    );
  }
}

/**
 * One record of the export from the entry as the API answers it: the definition AuditCsvWriter's records are checked
 * against (audit.presenter.test.ts).
 * @internal
 */
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
