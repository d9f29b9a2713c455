/**
 * Column-wise row buffers: the generator fills one array per column, and the repository hands each
 * array to PostgreSQL as one parameter of `unnest`, so a batch of any size costs a fixed number of parameters.
 */
export type SqlType = 'text' | 'int4' | 'bool' | 'float4' | 'timestamptz';
export type Cell = string | number | boolean | null;

class ColumnTable<K extends string> {
  readonly columns: Record<K, Cell[]>;
  length = 0;

  constructor(
    /** Table name, unquoted. */
    readonly table: string,
    /** Column name (as in SQL, unquoted) → element type. */
    readonly types: Record<K, SqlType>,
  ) {
    this.columns = Object.fromEntries(Object.keys(types).map((k) => [k, [] as Cell[]])) as Record<K, Cell[]>;
  }

  push(row: Record<K, Cell>): void {
    for (const key of Object.keys(this.types) as K[]) this.columns[key].push(row[key]);
    this.length++;
  }
}

export const newUsers = () =>
  new ColumnTable('user', { id: 'text', name: 'text', email: 'text', emailVerified: 'bool', createdAt: 'timestamptz', updatedAt: 'timestamptz' });

export const newMembers = () =>
  new ColumnTable('members', {
    id: 'text', organisation_id: 'text', user_id: 'text', email: 'text', display_name: 'text', role: 'int4',
    license_id: 'text', pending: 'bool', calevel1_at: 'timestamptz', calevel2_at: 'timestamptz', certifying: 'float4',
    is_ambassador: 'bool', is_student: 'bool', revoked_at: 'timestamptz', signed_up_at: 'timestamptz',
    created_at: 'timestamptz', updated_at: 'timestamptz',
  });

export const newLibraries = () =>
  new ColumnTable('libraries', {
    id: 'text', organisation_id: 'text', owner_member_id: 'text', name: 'text', is_private: 'bool',
    archived_at: 'timestamptz', created_at: 'timestamptz',
  });

export const newLibraryMemberships = () =>
  new ColumnTable('library_memberships', {
    organisation_id: 'text', library_id: 'text', member_id: 'text', role: 'int4', joined_at: 'timestamptz',
  });

export const newBooks = () =>
  new ColumnTable('books', {
    id: 'text', organisation_id: 'text', library_id: 'text', author_member_id: 'text', title: 'text',
    shape: 'text', published: 'bool', created_at: 'timestamptz',
  });

export const newAnalyticsEvents = () =>
  new ColumnTable('analytics_events', {
    event_id: 'text', organisation_id: 'text', occurred_at: 'timestamptz', user_id: 'text', user_kind: 'text', os: 'text',
    provider: 'text', email_domain: 'text', duration_seconds: 'int4',
  });

export type AnalyticsEventRows = ReturnType<typeof newAnalyticsEvents>;
