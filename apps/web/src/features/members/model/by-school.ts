import type { Member } from '@quire/core';

/**
 * On a district's list each teacher belongs to one organisation of the district (`member.organisation`), and every
 * change to them is made there, by that organisation's rules (docs/districts.md, "District views"). Elsewhere a
 * teacher belongs to the organisation shown.
 */
export function schoolOf(member: Pick<Member, 'organisation'>, orgId: string): string {
  return member.organisation?.id ?? orgId;
}

/** The teachers grouped by the organisation they belong to, in the order first met. */
export function groupBySchool<M extends Pick<Member, 'id' | 'organisation'>>(members: readonly M[], orgId: string): Array<{ orgId: string; members: M[] }> {
  const groups = new Map<string, M[]>();
  for (const m of members) {
    const school = schoolOf(m, orgId);
    groups.set(school, [...(groups.get(school) ?? []), m]);
  }
  return [...groups].map(([id, list]) => ({ orgId: id, members: list }));
}
