import type { OrganisationSummary } from '@quire/core';

/**
 * The organisations under `orgId` that the signed-in user may open (the session's list, each with its parent), depth
 * first, by name: a district's schools. An admin of a district may open every organisation under it
 * (docs/districts.md), so for them this is the whole district; a school has none.
 */
export function organisationsUnder(organisations: readonly OrganisationSummary[], orgId: string): OrganisationSummary[] {
  const children = new Map<string, OrganisationSummary[]>();
  for (const o of organisations) {
    if (o.parentId && o.parentId !== o.id) children.set(o.parentId, [...(children.get(o.parentId) ?? []), o]);
  }
  const found: OrganisationSummary[] = [];
  const seen = new Set([orgId]);
  const walk = (id: string) => {
    for (const child of [...(children.get(id) ?? [])].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))) {
      if (seen.has(child.id)) continue;
      seen.add(child.id);
      found.push(child);
      walk(child.id);
    }
  };
  walk(orgId);
  return found;
}
