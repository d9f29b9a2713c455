import type { ColumnType } from 'kysely';

/** Column types the table definitions share: a timestamp read as a Date, written as a Date or an ISO string. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json<T> = ColumnType<T, T | string | undefined, T | string>;
