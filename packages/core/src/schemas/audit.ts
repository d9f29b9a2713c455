import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_OUTCOMES,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  AUDIT_SEARCH_MAX,
} from '../audit-actions.js';
import { idSchema } from './common.js';

/** The audit log of an organisation (docs/audit-log.md): its entries, their filters, the export and the retention. */

/** A date-time with its offset (`2024-03-05T00:00:00Z`, `…+01:00`) or a day (`2024-03-05`, midnight UTC). */
const instantSchema = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'Give a date (YYYY-MM-DD) or a date and time with its offset (ISO 8601)',
});

const searchSchema = z
  .string()
  .trim()
  .max(AUDIT_SEARCH_MAX, `Search at most ${AUDIT_SEARCH_MAX} characters`)
  .optional()
  .transform((v) => (v ? v : undefined));

/** One action, or several: `action=a&action=b` (or `action=a,b`). */
const actionsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter((s) => s !== ''))
  .pipe(z.array(z.enum(AUDIT_ACTIONS, { error: (issue) => `Unknown action ${JSON.stringify(issue.input)}` })).max(AUDIT_ACTIONS.length))
  .optional();

const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || new Date(q.from).getTime() <= new Date(q.to).getTime();
const reversedDates = { message: 'from must not be after to', path: ['from'] };

/**
 * The filters of the screen and the export, combined with AND. `from` is inclusive and `to` exclusive; a day alone
 * means its midnight UTC (the console sends the admin's local midnights as date-times). `school` (a district only)
 * keeps the entries of one organisation under it, or the district's own when it is the district's id.
 */
const auditFilterFields = {
  /** Part of the actor's e-mail or name, any case. */
  actor: searchSchema,
  action: actionsSchema,
  /** Part of a target's e-mail, name or id, any case. */
  target: searchSchema,
  from: instantSchema.optional(),
  to: instantSchema.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  school: idSchema.optional(),
};

/** The export's query: exactly the filters of the view. */
export const auditFiltersSchema = z.object(auditFilterFields).refine(fromBeforeTo, reversedDates);
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** A page: the filters and, after the first page, the `nextCursor` of the page before. */
export const auditEventsQuerySchema = z
  .object({ ...auditFilterFields, cursor: z.string().min(1).max(200).optional() })
  .refine(fromBeforeTo, reversedDates);
export type AuditEventsQuery = z.infer<typeof auditEventsQuerySchema>;

const auditTargetSchema = z.object({
  type: z.string(),
  id: z.string(),
  /** The display text as it was when the entry was written (an e-mail, a name); null when none was known. */
  label: z.string().nullable(),
});

const auditEventSchema = z.object({
  /** Stable: the same entry always has the same id. */
  id: z.string(),
  /** ISO 8601, UTC. */
  time: z.string(),
  organisationId: z.string(),
  /** The organisation's current name (a district's log names each entry's school). */
  organisationName: z.string(),
  actor: z.object({
    id: z.string().nullable(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    kind: z.enum(AUDIT_ACTOR_KINDS),
  }),
  /** The dotted name from the catalogue (`licenses.assign`). */
  action: z.string(),
  /** The action in plain words ("Assigned licence Premium"). */
  actionText: z.string(),
  /** The targets whose display text was kept (the first ones of a bulk change). */
  targets: z.array(auditTargetSchema),
  /** How many targets the change had (a bulk change names them all by id: `targetIds`). */
  targetCount: z.number().int(),
  targetIds: z.array(z.string()),
  /** The targets in words. */
  targetText: z.string(),
  oldValue: z.unknown(),
  newValue: z.unknown(),
  /** Old → new in words. */
  changeText: z.string(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  errorCode: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditEventsPageSchema = z.object({
  events: z.array(auditEventSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** The organisation has organisations under it: its log holds theirs too, and `school` filters them. */
  hasOrganisationsBelow: z.boolean(),
});
export type AuditEventsPage = z.infer<typeof auditEventsPageSchema>;

export const auditRetentionSchema = z.object({
  /** Entries older than this many days are deleted by the daily retention job. */
  retentionDays: z.number().int(),
  minDays: z.number().int(),
  maxDays: z.number().int(),
});
export type AuditRetention = z.infer<typeof auditRetentionSchema>;

export const auditRetentionUpdateSchema = z.strictObject({
  retentionDays: z
    .number()
    .int()
    .min(AUDIT_RETENTION_MIN_DAYS, `Keep entries at least ${AUDIT_RETENTION_MIN_DAYS} days`)
    .max(AUDIT_RETENTION_MAX_DAYS, `Keep entries at most ${AUDIT_RETENTION_MAX_DAYS} days (7 years)`),
});
