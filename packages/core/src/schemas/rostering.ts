import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * Rostering from a student information system (docs/rostering.md): a OneRoster 1.2 or 1.1 CSV zip uploaded, previewed,
 * then applied as a background job; the organisation's OneRoster org ids; the history of imports.
 */

/** The largest zip accepted (bytes). A 50,000-person district's export is a few megabytes. */
export const ROSTER_MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** The preview lists this many rows of each list (to add, to update, to retire, errors). */
export const ROSTER_PREVIEW_ROWS = 20;
/** The history lists this many imports, newest first. */
export const ROSTER_HISTORY_SIZE = 50;

/** What an aide in the file becomes: skipped (the default) or a teacher. */
const rosterAideRuleSchema = z.enum(['skip', 'teacher']);
/** Which licence a new member receives: none, the licence of their school with a given name, or their school's only licence. */
const rosterLicenceRuleSchema = z.enum(['none', 'named', 'bySchool']);

/** The admin's choices, sent with the upload (query string: the body is the zip). */
export const rosterUploadQuerySchema = z.object({
  fileName: z.string().trim().min(1).max(255).default('roster.zip'),
  aides: rosterAideRuleSchema.default('skip'),
  /** 'true': OneRoster administrators (site and district) also become console admins of their organisation. */
  consoleAdmins: z.enum(['true', 'false']).default('false'),
  licence: rosterLicenceRuleSchema.default('none'),
  /** The licence's name, with licence=named. */
  licenceName: z.string().trim().max(128).default(''),
  /** 'true': apply nothing when the file has any error. */
  allOrNothing: z.enum(['true', 'false']).default('false'),
});
export type RosterUploadQuery = z.infer<typeof rosterUploadQuerySchema>;

export const rosterImportParamsSchema = z.object({ orgId: idSchema, importId: idSchema });

/** An error in the file: where it is and why. Line 1 is the header; column is the header's name. */
const rosterErrorSchema = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.string().nullable(),
  reason: z.string(),
});
export type RosterError = z.infer<typeof rosterErrorSchema>;

/** One person in a preview list. */
const rosterPreviewRowSchema = z.object({
  sourcedId: z.string(),
  name: z.string(),
  email: z.string(),
  /** The OneRoster role, as the file names it (teacher, principal, siteAdministrator…). */
  role: z.string(),
  /** The Quire organisation they belong to. */
  organisation: z.string(),
  /** For an update: what changes ('email', 'name', 'role', 'organisation', 'restored', 'linked'). */
  changes: z.array(z.string()),
});
export type RosterPreviewRow = z.infer<typeof rosterPreviewRowSchema>;

const rosterCountsSchema = z.object({
  add: z.number().int(),
  update: z.number().int(),
  retire: z.number().int(),
  unchanged: z.number().int(),
  errors: z.number().int(),
  /** Students in the file: counted, never imported (the console manages teachers). */
  students: z.number().int(),
  /** Other people not imported: aides when skipped, guardians, parents, relatives, proctors. */
  skipped: z.number().int(),
});
export type RosterCounts = z.infer<typeof rosterCountsSchema>;

const rosterOrgSchema = z.object({
  sourcedId: z.string(),
  name: z.string(),
  type: z.string(),
  /** The Quire organisation it is matched to, or null (unmatched: its people are errors, never guessed). */
  organisationId: z.string().nullable(),
});

const rosterImportStatusSchema = z.enum(['preview', 'queued', 'applying', 'applied', 'failed', 'cancelled']);

/** One import as the history lists it. */
const rosterImportSummarySchema = z.object({
  id: z.string(),
  status: rosterImportStatusSchema,
  fileName: z.string(),
  /** '1.2' or '1.1'. */
  version: z.string(),
  /** 'bulk' (a full import: people missing from it are retired) or 'delta'. */
  mode: z.enum(['bulk', 'delta']),
  /** The admin who uploaded it. */
  createdBy: z.string(),
  createdAt: z.string(),
  appliedAt: z.string().nullable(),
  counts: rosterCountsSchema,
  /** Rows done and the total while applying (and once applied). */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
});
export type RosterImportSummary = z.infer<typeof rosterImportSummarySchema>;

/** An import with its preview: the summary, the first rows of each list, the file's orgs and how they match. */
export const rosterImportSchema = rosterImportSummarySchema.extend({
  options: z.object({
    aides: rosterAideRuleSchema,
    consoleAdmins: z.boolean(),
    licence: rosterLicenceRuleSchema,
    licenceName: z.string(),
    allOrNothing: z.boolean(),
  }),
  preview: z.object({
    add: z.array(rosterPreviewRowSchema),
    update: z.array(rosterPreviewRowSchema),
    retire: z.array(rosterPreviewRowSchema),
    errors: z.array(rosterErrorSchema),
  }),
  orgs: z.array(rosterOrgSchema),
});
export type RosterImport = z.infer<typeof rosterImportSchema>;

export const rosterHistorySchema = z.object({ imports: z.array(rosterImportSummarySchema) });
export type RosterHistory = z.infer<typeof rosterHistorySchema>;

/** The OneRoster org ids of the organisation and the organisations under it, as set on the Rostering page. */
export const rosterOrgLinksSchema = z.object({
  links: z.array(z.object({ sourcedId: z.string().trim().min(1).max(256), organisationId: idSchema })).max(2000),
});
export type RosterOrgLinks = z.infer<typeof rosterOrgLinksSchema>;

/** The Rostering page's org matching: the links, and the organisations they may point to (this one and those under it). */
export const rosterOrgSetupSchema = rosterOrgLinksSchema.extend({
  organisations: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type RosterOrgSetup = z.infer<typeof rosterOrgSetupSchema>;
