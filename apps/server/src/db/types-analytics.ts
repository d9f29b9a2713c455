import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './column-types.js';

// The tables of Analytics and student portfolios; db/types.ts assembles them into the one DB interface.

export interface AnalyticsEventsTable {
  id: Generated<number>;
  /** The product's own id of the event; unique per organisation (intake is idempotent by it). */
  event_id: string;
  organisation_id: string;
  occurred_at: Timestamp;
  user_id: string | null;
  user_kind: 'student' | 'teacher';
  os: string;
  provider: string;
  email_domain: string | null;
  duration_seconds: Generated<number>;
}

export interface AnalyticsDailyTable {
  organisation_id: string;
  metric: string;
  day: ColumnType<Date, Date | string, Date | string>;
  name: Generated<string>;
  students: Generated<number>;
  teachers: Generated<number>;
  total: Generated<number>;
}

/** Users an organisation has seen in session events (the students count). */
export interface AnalyticsUsersTable {
  organisation_id: string;
  user_kind: 'student' | 'teacher';
  user_id: string;
  first_seen_at: Timestamp;
}

export interface PortfolioExportsTable {
  id: string;
  organisation_id: string;
  generated_at: Timestamp;
  row_count: Generated<number>;
  /** 'building' while its chunks are written (never visible); 'ready' once published. */
  status: Generated<'building' | 'ready'>;
  byte_size: Generated<number>;
  chunk_count: Generated<number>;
}

/** One piece (~1 MB) of an export's CSV, in order of seq. */
export interface PortfolioExportChunksTable {
  organisation_id: string;
  export_id: string;
  seq: number;
  data: Buffer;
}

export interface StudentsTable {
  id: string;
  organisation_id: string;
  student_number: string | null;
  display_name: string;
  email: string | null;
  grade: string | null;
  school_year: string | null;
  created_at: Timestamp;
}

/** A book a student published to their portfolio. */
export interface PortfolioItemsTable {
  id: string;
  organisation_id: string;
  student_id: string;
  book_id: string | null;
  book_title: string;
  page_count: Generated<number>;
  created_at: Timestamp;
  published_at: Timestamp;
  teacher_member_id: string | null;
  teacher_name: string | null;
  teacher_email: string | null;
  class_name: string | null;
  book_url: string | null;
}
