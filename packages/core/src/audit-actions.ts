// Plain data, no zod: the console's audit screen and the server's writer both read it (docs/audit-log.md).
import { APP_PERMISSION_LABELS, findApp } from './app-catalogue.js';

/**
 * Every action the audit log records, by its dotted name, with the plain words the screen and the CSV show.
 * `qualifier` names a target type whose display text follows the words ("Assigned licence Premium"). Add an
 * action here before a service records it: the writer's type refuses a name that is not listed, and the API's
 * action filter offers exactly these.
 */
export const auditActions = {
  'licenses.assign': { label: 'Assigned licence', qualifier: 'license' },
  'licenses.remove': { label: 'Removed licence', qualifier: 'license' },
  'licenses.allocate': { label: 'Allocated licences to a school', qualifier: null },
  'members.import': { label: 'Imported teachers', qualifier: null },
  'members.revoke': { label: 'Removed teacher', qualifier: null },
  'members.grant': { label: 'Marked teacher as active', qualifier: null },
  'members.delete': { label: 'Deleted teacher', qualifier: null },
  'members.archive': { label: 'Archived teacher account', qualifier: null },
  'members.role': { label: 'Changed teacher role', qualifier: null },
  'members.convert_to_student': { label: 'Switched teacher to student', qualifier: null },
  'members.email.welcome': { label: 'Sent welcome e-mail', qualifier: null },
  'members.email.certification': { label: 'Sent certification request', qualifier: null },
  'members.export': { label: 'Exported teacher list', qualifier: null },
  'admins.import': { label: 'Added admins', qualifier: null },
  'admins.delete': { label: 'Removed admins', qualifier: null },
  'libraries.archive': { label: 'Archived libraries', qualifier: null },
  'libraries.reassign': { label: 'Transferred libraries', qualifier: null },
  'libraries.visit': { label: 'Visited library', qualifier: null },
  'settings.update': { label: 'Changed settings', qualifier: null },
  'settings.policies.update': { label: 'Changed settings for schools', qualifier: null },
  'lti.generate': { label: 'Generated LTI credentials', qualifier: null },
  'lti.revoke': { label: 'Revoked LTI credentials', qualifier: null },
  'lti.launch': { label: 'Launched from a learning platform', qualifier: null },
  'lti.provisioning_refused': { label: 'Refused a learning-platform account', qualifier: null },
  'lti.platform.add': { label: 'Registered a learning platform (LTI 1.3)', qualifier: null },
  'lti.platform.update': { label: 'Changed a learning platform (LTI 1.3)', qualifier: null },
  'lti.platform.remove': { label: 'Removed a learning platform (LTI 1.3)', qualifier: null },
  'lti.teachers_provisioned': { label: 'Added a course’s teachers from a learning platform', qualifier: null },
  'organisation.rename': { label: 'Renamed organisation', qualifier: null },
  'organisation.move': { label: 'Moved organisation', qualifier: null },
  'student_portfolios.download': { label: 'Downloaded student portfolios', qualifier: null },
  'console.sign_in': { label: 'Signed in to the console', qualifier: null },
  'console.sign_out': { label: 'Signed out of the console', qualifier: null },
  'audit.export': { label: 'Exported the audit log', qualifier: null },
  'audit.retention.update': { label: 'Changed audit log retention', qualifier: null },
  'audit.retention.purge': { label: 'Deleted expired audit entries', qualifier: null },
  'security.two_step.enabled': { label: 'Turned on 2-step verification', qualifier: null },
  'security.two_step.disabled': { label: 'Turned off 2-step verification', qualifier: null },
  'security.two_step.method_added': { label: 'Added a 2-step verification method', qualifier: null },
  'security.two_step.method_removed': { label: 'Removed a 2-step verification method', qualifier: null },
  'security.two_step.method_renamed': { label: 'Renamed a passkey', qualifier: null },
  'security.two_step.recovery_codes_regenerated': { label: 'Made new recovery codes', qualifier: null },
  'security.two_step.signed_in': { label: 'Signed in with 2-step verification', qualifier: null },
  'security.two_step.reset': { label: "Reset an admin's 2-step verification", qualifier: null },
  'security.two_step.policy_changed': { label: 'Changed the 2-step verification requirement', qualifier: null },
  'rostering.import.applied': { label: 'Applied a roster import', qualifier: null },
  'rostering.import.cancelled': { label: 'Cancelled a roster import', qualifier: null },
  'rostering.member.added': { label: 'Added teacher (roster import)', qualifier: null },
  'rostering.member.updated': { label: 'Updated teacher (roster import)', qualifier: null },
  'rostering.member.retired': { label: 'Retired teacher (roster import)', qualifier: null },
  'rostering.orgs.updated': { label: 'Changed OneRoster org ids', qualifier: null },
  'scim.token.generated': { label: 'Generated a SCIM token', qualifier: null },
  'scim.token.revoked': { label: 'Revoked a SCIM token', qualifier: null },
  'scim.user.created': { label: 'Provisioned teacher (SCIM)', qualifier: null },
  'scim.user.updated': { label: 'Updated provisioned teacher (SCIM)', qualifier: null },
  'scim.user.deactivated': { label: 'Deactivated provisioned teacher (SCIM)', qualifier: null },
  'scim.user.reactivated': { label: 'Reactivated provisioned teacher (SCIM)', qualifier: null },
  'scim.user.deleted': { label: 'Deleted provisioned teacher (SCIM)', qualifier: null },
  'scim.group.created': { label: 'Created group (SCIM)', qualifier: null },
  'scim.group.updated': { label: 'Updated group (SCIM)', qualifier: null },
  'scim.group.deleted': { label: 'Deleted group (SCIM)', qualifier: null },
} as const satisfies Record<string, { label: string; qualifier: string | null }>;

export type AuditAction = keyof typeof auditActions;

/** Every action name, in the catalogue's order (the API's filter, the screen's choices). */
export const AUDIT_ACTIONS = Object.keys(auditActions) as [AuditAction, ...AuditAction[]];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(auditActions, value);
}

/**
 * Who acted: a signed-in person, a provider staff member, a learning platform (LTI launch), an identity provider (SCIM
 * requests, with the token's id) or a background job.
 */
export const AUDIT_ACTOR_KINDS = ['user', 'provider_staff', 'lti_platform', 'identity_provider', 'job'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const auditActorKindLabels: Record<AuditActorKind, string> = {
  user: 'Console user',
  provider_staff: 'Provider staff',
  lti_platform: 'Learning platform',
  identity_provider: 'Identity provider (SCIM)',
  job: 'Quire (scheduled job)',
};

export const AUDIT_OUTCOMES = ['success', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Entries a page of the audit log holds (newest first). */
export const AUDIT_PAGE_SIZE = 50;
/** The longest actor or target search accepted; longer is refused with a 400, nothing run. */
export const AUDIT_SEARCH_MAX = 200;
/** Targets whose display text an entry keeps; a bulk change keeps every id and the count, and the first texts. */
export const AUDIT_TARGET_TEXTS_MAX = 100;

/** Retention of an organisation's entries, in days: 2 years (730) by default, between 90 days and 7 years (of 365 days). */
export const AUDIT_RETENTION_MIN_DAYS = 90;
export const AUDIT_RETENTION_MAX_DAYS = 2555;

interface Target {
  type: string;
  id: string;
  label: string | null;
}

/** The action in plain words, with its qualifier's text when the entry names one ("Assigned licence Premium"). */
export function auditActionText(action: string, targets: readonly Target[] = []): string {
  if (!isAuditAction(action)) return action;
  const { label, qualifier } = auditActions[action];
  const named = qualifier ? targets.find((t) => t.type === qualifier)?.label : null;
  return named ? `${label} ${named}` : label;
}

/**
 * The targets in words: the first texts (or ids), and how many more of the `targetCount` the change touched.
 * Qualifier targets (the licence of "Assigned licence Premium") are left to the action text.
 */
export function auditTargetText(action: string, targets: readonly Target[], targetCount: number): string {
  const qualifier = isAuditAction(action) ? auditActions[action].qualifier : null;
  const shown = targets.filter((t) => t.type !== qualifier);
  const total = Math.max(targetCount, shown.length);
  const first = shown.slice(0, 3).map((t) => t.label ?? t.id);
  const more = total - first.length;
  if (first.length === 0) return total > 0 ? `${total} ${total === 1 ? 'item' : 'items'}` : '';
  return more > 0 ? `${first.join(', ')} and ${more} more` : first.join(', ');
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/**
 * Old → new in words: one "field: old → new" per field that changed, separated by "; ". Values the writer
 * recorded as plain objects of the same keys; anything else is shown as it is.
 */
export function auditChangeText(oldValue: unknown, newValue: unknown): string {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (oldValue === null && newValue === null) return '';
  if (isRecord(oldValue) || isRecord(newValue)) {
    const before = isRecord(oldValue) ? oldValue : {};
    const after = isRecord(newValue) ? newValue : {};
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.map((key) => `${key}: ${valueText(before[key])} → ${valueText(after[key])}`).join('; ');
  }
  return `${valueText(oldValue)} → ${valueText(newValue)}`;
}

/** A setting's value in words (an app's permission, image search, or a district's policy of either); null: not set. */
function settingValueText(setting: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'mode' in value) {
    const policy = value as { mode: string; value: unknown };
    return `${policy.mode === 'locked' ? 'Locked' : 'Default'}: ${settingValueText(setting, policy.value)}`;
  }
  if (setting === 'imageSearch') return value === 'pixabay' ? 'Moderated safe images only (Pixabay)' : 'Google image search allowed';
  if (value === 1) return APP_PERMISSION_LABELS.teachersOnly;
  if (value === -1) return APP_PERMISSION_LABELS.disabled;
  if (value === 0) return APP_PERMISSION_LABELS.teachersAndStudents;
  return String(value);
}

/** A setting's name in words: the app's name, or 'Image search'. */
function settingName(setting: string): string {
  if (setting === 'imageSearch') return 'Image search';
  const id = setting.startsWith('apps.') ? setting.slice('apps.'.length) : setting;
  return findApp(id)?.name ?? id;
}

/** Settings changes as an entry's old and new values, in words: `{ GIPHY: 'Teachers only' }` → `{ GIPHY: 'Disabled for everyone' }`. */
export function auditSettingValues(changes: ReadonlyArray<{ setting: string; old: unknown; new: unknown }>): { oldValue: Record<string, string | null>; newValue: Record<string, string | null> } {
  const oldValue: Record<string, string | null> = {};
  const newValue: Record<string, string | null> = {};
  for (const change of changes) {
    const name = settingName(change.setting);
    oldValue[name] = settingValueText(change.setting, change.old);
    newValue[name] = settingValueText(change.setting, change.new);
  }
  return { oldValue, newValue };
}
