import { sql, type Kysely } from 'kysely';

/**
 * Districts over schools (docs/districts.md): an organisation may have a parent, and an admin of an organisation
 * is an admin of every organisation under it.
 *
 * - organisations.parent_id: the parent (a district over its schools; a region over its districts). A parent with
 *   children cannot be deleted (RESTRICT): detach or move them first.
 * - organisation_ancestors: the closure of the tree, one row per (organisation, ancestor-or-self) with the distance,
 *   so the access decision stays one indexed look-up per request: "is the person an admin of this organisation or of
 *   one above it". Kept by triggers, whatever inserts or moves an organisation (the service, the demo seeder, tests).
 * - The triggers refuse a cycle and a tree deeper than three levels (region → district → school): depth 0–2.
 */
/** Frozen with the migration: ORGANISATION_TREE_MAX_DEPTH in @quire/core is the rule the services check first. */
const MAX_ORGANISATION_DEPTH = 2;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organisations ADD COLUMN parent_id text REFERENCES organisations(id) ON DELETE RESTRICT`.execute(db);
  await sql`ALTER TABLE organisations ADD CONSTRAINT organisations_not_own_parent CHECK (parent_id IS NULL OR parent_id <> id)`.execute(db);
  await sql`CREATE INDEX organisations_parent_idx ON organisations (parent_id) WHERE parent_id IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE organisation_ancestors (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      ancestor_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      depth integer NOT NULL CHECK (depth >= 0),
      PRIMARY KEY (organisation_id, ancestor_id)
    )`.execute(db);
  await sql`CREATE INDEX organisation_ancestors_ancestor_idx ON organisation_ancestors (ancestor_id, organisation_id)`.execute(db);
  await sql`COMMENT ON TABLE organisation_ancestors IS 'Closure of organisations.parent_id: each organisation with itself (depth 0) and every organisation above it; kept by triggers'`.execute(db);
  await sql`INSERT INTO organisation_ancestors (organisation_id, ancestor_id, depth) SELECT id, id, 0 FROM organisations`.execute(db);

  await sql`
    CREATE FUNCTION organisation_tree_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO organisation_ancestors (organisation_id, ancestor_id, depth)
      SELECT NEW.id, NEW.id, 0
      UNION ALL
      SELECT NEW.id, a.ancestor_id, a.depth + 1 FROM organisation_ancestors a WHERE a.organisation_id = NEW.parent_id;
      IF EXISTS (SELECT 1 FROM organisation_ancestors WHERE organisation_id = NEW.id AND depth > ${sql.lit(MAX_ORGANISATION_DEPTH)}) THEN
        RAISE EXCEPTION 'organisation tree too deep' USING ERRCODE = 'check_violation', CONSTRAINT = 'organisation_tree_depth';
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER organisation_tree_insert AFTER INSERT ON organisations FOR EACH ROW EXECUTE FUNCTION organisation_tree_insert()`.execute(db);

  // A move: the subtree's rows to organisations above the moved one go, the new parent's ancestors come.
  await sql`
    CREATE FUNCTION organisation_tree_move() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.parent_id IS NOT NULL AND EXISTS (SELECT 1 FROM organisation_ancestors WHERE organisation_id = NEW.parent_id AND ancestor_id = NEW.id) THEN
        RAISE EXCEPTION 'organisation tree cycle' USING ERRCODE = 'check_violation', CONSTRAINT = 'organisation_tree_cycle';
      END IF;
      DELETE FROM organisation_ancestors d
      WHERE d.organisation_id IN (SELECT organisation_id FROM organisation_ancestors WHERE ancestor_id = NEW.id)
        AND d.ancestor_id NOT IN (SELECT organisation_id FROM organisation_ancestors WHERE ancestor_id = NEW.id);
      INSERT INTO organisation_ancestors (organisation_id, ancestor_id, depth)
      SELECT s.organisation_id, a.ancestor_id, s.depth + a.depth + 1
      FROM organisation_ancestors s CROSS JOIN organisation_ancestors a
      WHERE s.ancestor_id = NEW.id AND a.organisation_id = NEW.parent_id;
      IF EXISTS (
        SELECT 1 FROM organisation_ancestors
        WHERE organisation_id IN (SELECT organisation_id FROM organisation_ancestors WHERE ancestor_id = NEW.id) AND depth > ${sql.lit(MAX_ORGANISATION_DEPTH)}
      ) THEN
        RAISE EXCEPTION 'organisation tree too deep' USING ERRCODE = 'check_violation', CONSTRAINT = 'organisation_tree_depth';
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER organisation_tree_move AFTER UPDATE OF parent_id ON organisations
    FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION organisation_tree_move()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS organisation_tree_move ON organisations`.execute(db);
  await sql`DROP TRIGGER IF EXISTS organisation_tree_insert ON organisations`.execute(db);
  await sql`DROP FUNCTION IF EXISTS organisation_tree_move()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS organisation_tree_insert()`.execute(db);
  await sql`DROP TABLE IF EXISTS organisation_ancestors`.execute(db);
  await sql`ALTER TABLE organisations DROP COLUMN IF EXISTS parent_id`.execute(db);
}
