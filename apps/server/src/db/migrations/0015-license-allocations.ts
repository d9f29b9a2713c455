import { sql, type Kysely } from 'kysely';

/**
 * Seats of a district's licence allocated to its schools (docs/districts.md, "Licences across the district").
 *
 * An allocation is a licence row of the school that names the licence it comes from: its quantity is the seats
 * allocated. Members can only hold a licence of their own organisation (members' foreign key), so the school's
 * teachers hold the school's row, and every school flow (dashboard, assignment with its row lock and quantity
 * check, import, the Teachers list, the CSV) works on it unchanged. One row per district licence and school.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE licenses
      ADD COLUMN allocated_from_organisation_id text,
      ADD COLUMN allocated_from_license_id text,
      ADD CONSTRAINT licenses_allocated_from_fk FOREIGN KEY (allocated_from_organisation_id, allocated_from_license_id)
        REFERENCES licenses (organisation_id, id) ON DELETE RESTRICT,
      ADD CONSTRAINT licenses_allocated_from_both CHECK ((allocated_from_organisation_id IS NULL) = (allocated_from_license_id IS NULL)),
      ADD CONSTRAINT licenses_allocated_from_elsewhere CHECK (allocated_from_organisation_id IS DISTINCT FROM organisation_id),
      ADD CONSTRAINT licenses_allocation_not_to_all CHECK (allocated_from_license_id IS NULL OR NOT apply_to_all)`.execute(db);
  // One allocation per district licence and school; the district's reads (its allocations, their sum) use it.
  await sql`
    CREATE UNIQUE INDEX licenses_allocation_idx ON licenses (allocated_from_organisation_id, allocated_from_license_id, organisation_id)
      WHERE allocated_from_license_id IS NOT NULL`.execute(db);
  await sql`COMMENT ON COLUMN licenses.allocated_from_license_id IS 'Set on a school''s share of a district licence: the district licence; quantity is the seats allocated'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX licenses_allocation_idx`.execute(db);
  await sql`
    ALTER TABLE licenses
      DROP CONSTRAINT licenses_allocation_not_to_all,
      DROP CONSTRAINT licenses_allocated_from_elsewhere,
      DROP CONSTRAINT licenses_allocated_from_both,
      DROP CONSTRAINT licenses_allocated_from_fk,
      DROP COLUMN allocated_from_license_id,
      DROP COLUMN allocated_from_organisation_id`.execute(db);
}
