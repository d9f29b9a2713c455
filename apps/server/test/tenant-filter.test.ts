import { describe, expect, it } from 'vitest';
import { statementFingerprint, unfilteredTenantTables } from './tenant-filter.js';

const tenantTables = new Set(['members', 'licenses', 'admins']);
const unfiltered = (sql: string) => unfilteredTenantTables(sql, tenantTables);

describe('the tenant-filter rule, read by PostgreSQL’s parser', () => {
  it('accepts a statement that names the organisation of each tenant table it reads', () => {
    expect(unfiltered('select m.id from members m where m.organisation_id = $1')).toEqual([]);
    expect(unfiltered('select id from members where organisation_id = $1 and email = $2')).toEqual([]);
    expect(unfiltered('update members set role = $1 where organisation_id = $2 and id = $3')).toEqual([]);
    expect(unfiltered('delete from "admins" where "admins"."organisation_id" = $1')).toEqual([]);
    expect(unfiltered('insert into members (organisation_id, email) values ($1, $2)')).toEqual([]);
  });

  it('accepts a table reached by its primary key from a filtered row', () => {
    expect(unfiltered('select m.id, l.name from members m left join licenses l on l.id = m.license_id where m.organisation_id = $1')).toEqual([]);
  });

  it('refuses a statement that forgets the tenant, naming the table', () => {
    expect(unfiltered('select id from members where email = $1')).toEqual(['members']);
    expect(unfiltered('update members set role = $1 where id = $2')).toEqual(['members']);
    expect(unfiltered('delete from admins where email = $1')).toEqual(['admins']);
    expect(unfiltered('insert into members (email) values ($1)')).toEqual(['members']);
  });

  it('refuses a join whose second tenant table is filtered by nothing', () => {
    // The licence is joined on its name, not its key: any organisation's licence of that name would match.
    expect(unfiltered('select m.id from members m join licenses l on l.name = m.email where m.organisation_id = $1')).toEqual(['licenses']);
    // A filter on another table's organisation does not name this one's.
    expect(unfiltered('select a.email from admins a, members m where m.organisation_id = $1 and a.email = m.email')).toEqual(['admins']);
  });

  it('looks into common table expressions and sub-selects', () => {
    expect(unfiltered('with x as (select id from members where email = $1) select * from x')).toEqual(['members']);
    expect(unfiltered('select 1 where exists (select 1 from licenses l where l.organisation_id = $1)')).toEqual([]);
  });

  it('ignores tables that are not tenant tables, and statements that read or write no rows', () => {
    expect(unfiltered('select id from users where email = $1')).toEqual([]);
    expect(unfiltered('alter table members add column x text')).toEqual([]);
    expect(unfiltered('truncate members, licenses')).toEqual([]);
  });

  it('counts a column naming another organisation of the tree (a district’s allocation)', () => {
    expect(unfiltered('select sum(quantity) from licenses where allocated_from_organisation_id = $1')).toEqual([]);
  });

  it('gives one fingerprint to a statement whatever its values and list lengths', () => {
    expect(statementFingerprint('select id from members where id in ($1, $2)')).toBe(statementFingerprint('select id from members where id in ($1, $2, $3)'));
    expect(statementFingerprint('select id from members where id = $1')).not.toBe(statementFingerprint('select id from admins where id = $1'));
  });
});
