import type { OrganisationSummary } from '@quire/core';

/** One choice of the organisation picker. */
export interface PickerItem {
  value: string;
  label: string;
}

/** A district (or region) with every organisation under it that the actor may open. */
export interface PickerGroup {
  group: string;
  items: PickerItem[];
}

const byName = (a: OrganisationSummary, b: OrganisationSummary) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/**
 * The picker's choices as the organisation tree (docs/districts.md): an organisation with others under it that the
 * actor may open is a group headed by its name, whose first choice is the organisation itself ('… (district)'),
 * then each one under it, depth first, by name (a second level indented with '– '). Organisations whose parent the
 * actor cannot open stand on their own. A search matches every label, so a school is found by its own name.
 */
export function pickerData(organisations: readonly OrganisationSummary[]): Array<PickerItem | PickerGroup> {
  const ids = new Set(organisations.map((o) => o.id));
  const children = new Map<string, OrganisationSummary[]>();
  const roots: OrganisationSummary[] = [];
  for (const organisation of organisations) {
    const parent = organisation.parentId;
    if (parent && ids.has(parent) && parent !== organisation.id) children.set(parent, [...(children.get(parent) ?? []), organisation]);
    else roots.push(organisation);
  }
  const below = (id: string, depth: number, seen: Set<string>): PickerItem[] =>
    (children.get(id) ?? [])
      .slice()
      .sort(byName)
      .filter((child) => !seen.has(child.id))
      .flatMap((child) => {
        seen.add(child.id);
        return [{ value: child.id, label: `${'– '.repeat(depth)}${child.name}` }, ...below(child.id, depth + 1, seen)];
      });
  return roots
    .slice()
    .sort(byName)
    .map((root) => {
      const items = below(root.id, 0, new Set([root.id]));
      return items.length === 0 ? { value: root.id, label: root.name } : { group: root.name, items: [{ value: root.id, label: `${root.name} (district)` }, ...items] };
    });
}
