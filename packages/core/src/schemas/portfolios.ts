import { z } from 'zod';

/**
 * GET /rest/{org}/student-portfolios-export/{id} (spec §7, "Portfolio download" of §3): where to download
 * the newest student-portfolio CSV. The link is signed and stops working refreshIn seconds after the answer
 * arrived (§4 "Portfolio"), so the console renews it before then.
 */
export const portfolioDownloadSchema = z.object({
  /** Signed, expiring download link of the CSV (relative to the organisation service when it starts with /). */
  url: z.string().min(1),
  /** When the export was built (ISO 8601). */
  generatedAt: z.string(),
  /** Seconds from the answer until the link expires. */
  refreshIn: z.number().int().positive(),
});
export type PortfolioDownload = z.infer<typeof portfolioDownloadSchema>;

/** Path parameters of the export call: the organisation, and the acting user's id (or 'latest'). */
export const portfolioExportParamsSchema = z.object({
  org: z.string().min(1).max(64),
  id: z.string().min(1).max(64),
});

/** Query of the signed download link. */
export const portfolioDownloadQuerySchema = z.object({
  user: z.string().min(1).max(64),
  /** The session that asked for the link: the link works while it lives and its user is still an admin. */
  session: z.string().min(1).max(200),
  expires: z.coerce.number().int().positive(),
  signature: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/),
});

/** The CSV columns of the export, in order (docs/portfolios.md describes each). */
export const PORTFOLIO_CSV_COLUMNS = [
  'Student ID',
  'Student Number',
  'Student Name',
  'Student Email',
  'Grade',
  'School Year',
  'Book ID',
  'Book Title',
  'Pages',
  'Created',
  'Published',
  'Teacher Name',
  'Teacher Email',
  'Class',
  'Book Link',
] as const;

/** Path parameters of the signed download link. */
export const portfolioFileParamsSchema = z.object({
  org: z.string().min(1).max(64),
  exportId: z.string().uuid(),
});
