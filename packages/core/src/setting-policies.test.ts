import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORGANISATION_TREE_MAX_DEPTH } from './constants.js';
import { resolveSetting, resolveSettings, type OrganisationSettingsNode, type SettingLink, type SettingPolicy } from './setting-policies.js';

type Value = 0 | 1 | -1;
const BUILT_IN: Value = 0;

interface TreeNode {
  id: string;
  parent: string | null;
  own: Value | null;
  policy: SettingPolicy<Value> | null;
}

/** Random forests at most three levels deep (region → district → school), with own values and policies anywhere. */
const valueArb = fc.constantFrom<Value>(0, 1, -1);
const policyArb = fc.option(fc.record({ mode: fc.constantFrom('locked' as const, 'default' as const), value: valueArb }), { nil: null });
const treeArb = fc
  .array(fc.record({ parentPick: fc.nat(), hasParent: fc.boolean(), own: fc.option(valueArb, { nil: null }), policy: policyArb }), { minLength: 1, maxLength: 12 })
  .map((specs) => {
    const nodes: Array<TreeNode & { depth: number }> = [];
    specs.forEach((spec, i) => {
      const candidates = nodes.filter((n) => n.depth < ORGANISATION_TREE_MAX_DEPTH);
      const parent = spec.hasParent && candidates.length > 0 ? candidates[spec.parentPick % candidates.length]! : null;
      nodes.push({ id: `org-${i}`, parent: parent?.id ?? null, own: spec.own, policy: spec.policy, depth: parent ? parent.depth + 1 : 0 });
    });
    return nodes;
  });

/** The chain the server reads (itself, then its parent, …), built from parent pointers. */
function chainOf(nodes: TreeNode[], id: string): Array<SettingLink<Value>> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chain: Array<SettingLink<Value>> = [];
  for (let node = byId.get(id); node; node = node.parent ? byId.get(node.parent) : undefined) {
    chain.push({ id: node.id, name: `Name of ${node.id}`, own: node.own, policy: node.policy });
  }
  return chain;
}

/**
 * The brute-force model, written from the rule as a district admin reads it, over the whole tree: every organisation
 * that is above this one (found by testing each one of the tree) and what it says; then a lock set highest wins, else
 * the organisation's own value, else the default set nearest, else the built-in value.
 */
function model(nodes: TreeNode[], id: string): { value: Value; setBy: string | null } {
  const distanceAbove = (ancestor: TreeNode, of: TreeNode): number | null => {
    let distance = 0;
    let node: TreeNode | undefined = of;
    while (node) {
      if (node.id === ancestor.id) return distance;
      node = nodes.find((n) => n.id === node?.parent);
      distance += 1;
    }
    return null;
  };
  const self = nodes.find((n) => n.id === id)!;
  const above = nodes.flatMap((n) => {
    const d = distanceAbove(n, self);
    return d !== null && d > 0 && n.policy ? [{ node: n, d, policy: n.policy }] : [];
  });
  const locks = above.filter((a) => a.policy.mode === 'locked').sort((a, b) => b.d - a.d);
  if (locks[0]) return { value: locks[0].policy.value, setBy: locks[0].node.id };
  if (self.own !== null) return { value: self.own, setBy: null };
  const defaults = above.filter((a) => a.policy.mode === 'default').sort((a, b) => a.d - b.d);
  if (defaults[0]) return { value: defaults[0].policy.value, setBy: defaults[0].node.id };
  return { value: BUILT_IN, setBy: null };
}

describe('resolveSetting', () => {
  const school = (own: Value | null, policy: SettingPolicy<Value> | null = null) => ({ id: 's', name: 'School', own, policy });
  const district = (policy: SettingPolicy<Value> | null) => ({ id: 'd', name: 'District', policy });
  const region = (policy: SettingPolicy<Value> | null) => ({ id: 'r', name: 'Region', policy });

  it.each([
    ['nothing chosen: the built-in value', [school(null)], { value: 0, from: 'built-in', setBy: null }],
    ['the school’s own value', [school(-1), district(null)], { value: -1, from: 'own', setBy: null }],
    ['a district default the school follows', [school(null), district({ mode: 'default', value: 1 })], { value: 1, from: 'default', setBy: { id: 'd', name: 'District' } }],
    ['the school’s own value over a district default', [school(0), district({ mode: 'default', value: -1 })], { value: 0, from: 'own', setBy: null }],
    ['a district lock over the school’s own value', [school(0), district({ mode: 'locked', value: -1 })], { value: -1, from: 'locked', setBy: { id: 'd', name: 'District' } }],
    ['a district default over a region default', [school(null), district({ mode: 'default', value: 1 }), region({ mode: 'default', value: -1 })], { value: 1, from: 'default', setBy: { id: 'd', name: 'District' } }],
    ['a district lock over a region default', [school(0), district({ mode: 'locked', value: 1 }), region({ mode: 'default', value: -1 })], { value: 1, from: 'locked', setBy: { id: 'd', name: 'District' } }],
    ['a region lock over a district lock', [school(0), district({ mode: 'locked', value: 1 }), region({ mode: 'locked', value: -1 })], { value: -1, from: 'locked', setBy: { id: 'r', name: 'Region' } }],
    ['a region default through a district that lets schools decide', [school(null), district(null), region({ mode: 'default', value: -1 })], { value: -1, from: 'default', setBy: { id: 'r', name: 'Region' } }],
    ['its own policy does not apply to the organisation itself', [school(null, { mode: 'locked', value: -1 })], { value: 0, from: 'built-in', setBy: null }],
  ] as const)('%s', (_name, chain, expected) => {
    expect(resolveSetting<Value>(chain as ReadonlyArray<SettingLink<Value>>, BUILT_IN)).toMatchObject(expected);
  });

  it('keeps the own value and names the nearest default under a lock', () => {
    const resolved = resolveSetting<Value>([school(1), district({ mode: 'default', value: 0 }), region({ mode: 'locked', value: -1 })], BUILT_IN);
    expect(resolved).toEqual({ value: -1, from: 'locked', setBy: { id: 'r', name: 'Region' }, own: 1, inheritedDefault: { value: 0, setBy: { id: 'd', name: 'District' } } });
  });

  it('agrees with the brute-force model on random trees, locks, defaults and own values', () => {
    fc.assert(
      fc.property(treeArb, (nodes) => {
        for (const node of nodes) {
          const resolved = resolveSetting(chainOf(nodes, node.id), BUILT_IN);
          const expected = model(nodes, node.id);
          expect(resolved.value).toBe(expected.value);
          expect(resolved.setBy?.id ?? null).toBe(expected.setBy);
          expect(resolved.own).toBe(node.own);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('moves every organisation below that has not chosen its own value when a district default changes', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), valueArb, (nodes, pick, next) => {
        const district = nodes[pick % nodes.length]!;
        district.policy = { mode: 'default', value: next };
        for (const n of nodes) {
          const chain = chainOf(nodes, n.id);
          const resolved = resolveSetting(chain, BUILT_IN);
          // Followers of this district's default (nearest default, no lock above, no own value) have its new value.
          if (resolved.from === 'default' && resolved.setBy?.id === district.id) expect(resolved.value).toBe(next);
          if (resolved.from === 'own') expect(resolved.value).toBe(n.own);
        }
      }),
    );
  });
});

describe('resolveSettings', () => {
  const node = (id: string, own: OrganisationSettingsNode['own'], policies: OrganisationSettingsNode['policies']): OrganisationSettingsNode => ({ id, name: id, own, policies });

  it('answers the effective apps in the stored shape, with a source for every app and for image search', () => {
    const school = node('school', { apps: { giphy: 0, canva: 1 }, imageSearch: null }, { apps: {}, imageSearch: null });
    const district = node('district', { apps: { adobe: -1 } }, { apps: { giphy: { mode: 'locked', value: -1 }, sketchfab: { mode: 'default', value: 1 } }, imageSearch: { mode: 'default', value: 'pixabay' } });
    const resolved = resolveSettings([school, district]);
    expect(resolved.apps).toEqual({ giphy: -1, canva: 1, sketchfab: 1 });
    expect(resolved.imageSearch).toBe('pixabay');
    expect(resolved.sources.apps.giphy).toMatchObject({ value: -1, from: 'locked', own: 0, setBy: { id: 'district' } });
    expect(resolved.sources.apps.adobe).toMatchObject({ value: 0, from: 'built-in' });
    // A teacher-only app's built-in value is 'Teachers only'.
    expect(resolved.sources.apps.bitmoji).toMatchObject({ value: 1, from: 'built-in' });
    expect(resolved.sources.imageSearch).toMatchObject({ value: 'pixabay', from: 'default', setBy: { id: 'district', name: 'district' } });
  });

  it("answers a stand-alone organisation's settings as stored", () => {
    const resolved = resolveSettings([node('alone', { apps: { giphy: -1, bitmoji: 1 }, imageSearch: 'pixabay' }, { apps: {}, imageSearch: null })]);
    expect(resolved).toMatchObject({ apps: { giphy: -1, bitmoji: 1 }, imageSearch: 'pixabay' });
  });
});
