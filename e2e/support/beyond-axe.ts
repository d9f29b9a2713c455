import type { Page } from '@playwright/test';

/**
 * WCAG 2.1 AA checks axe does not make, run wherever axe runs (support/axe.ts):
 * - 1.1.1: every <svg> a screen reader would meet is hidden (aria-hidden) or a named image (a drawing inside
 *   a named role="img" is covered by it);
 * - 1.3.5: a field that asks for an e-mail address (type=email) says so with autocomplete="email";
 * - 2.5.3 Label in Name: a control named by aria-label / aria-labelledby has a name containing the text
 *   it shows (text hidden from assistive technology, e.g. an avatar's initials, is decoration).
 * Each finding names the rule, the element and what is wrong.
 */
export interface BeyondAxeFinding {
  rule: 'svg-hidden-or-named' | 'email-autocomplete' | 'label-in-name';
  element: string;
  detail: string;
}

export async function findBeyondAxe(page: Page, options: { include?: string; exclude?: string[] } = {}): Promise<BeyondAxeFinding[]> {
  return page.evaluate(({ include, exclude }) => {
    const findings: Array<{ rule: 'svg-hidden-or-named' | 'email-autocomplete' | 'label-in-name'; element: string; detail: string }> = [];
    const roots: Element[] = include ? Array.from(document.querySelectorAll(include)) : [document.body];
    const excluded = (el: Element) => exclude.some((selector) => el.closest(selector) !== null);
    const describe = (el: Element) => el.outerHTML.replace(/\s+/g, ' ').slice(0, 160);
    const rendered = (el: Element) => {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return false;
      for (let node: Element | null = el; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden') return false;
      }
      return true;
    };
    const hiddenFromAssistiveTech = (el: Element) => el.closest('[aria-hidden="true"], [inert]') !== null;
    const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
    /** The text a sighted user sees inside an element, leaving out what assistive technology is told to skip. */
    const visibleText = (el: Element): string => {
      let text = '';
      const walk = (node: Node) => {
        if (node.nodeType === Node.TEXT_NODE) {
          text += node.textContent ?? '';
          return;
        }
        if (!(node instanceof Element)) return;
        if (node.getAttribute('aria-hidden') === 'true' || !rendered(node)) return;
        const style = getComputedStyle(node);
        // Visually hidden text (clipped to one pixel) is for screen readers, not on screen.
        if (style.position === 'absolute' && node.getBoundingClientRect().width <= 1) return;
        if (style.display === 'block' || style.display === 'flex') text += ' ';
        node.childNodes.forEach(walk);
        if (style.display === 'block' || style.display === 'flex') text += ' ';
      };
      walk(el);
      return normalise(text);
    };
    const accessibleName = (el: Element): string => {
      const labelledBy = el.getAttribute('aria-labelledby');
      if (labelledBy) {
        return normalise(
          labelledBy
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        );
      }
      return normalise(el.getAttribute('aria-label') ?? '');
    };

    for (const root of roots) {
      for (const svg of Array.from(root.querySelectorAll('svg'))) {
        if (excluded(svg) || !rendered(svg) || hiddenFromAssistiveTech(svg)) continue;
        // Inside a named image (a chart drawn as one, with its figures in a data table) nothing is exposed.
        const image = svg.parentElement?.closest('[role="img"]');
        if (image && (image.getAttribute('aria-label') || image.getAttribute('aria-labelledby'))) continue;
        const named = svg.getAttribute('role') === 'img' && (svg.getAttribute('aria-label') || svg.getAttribute('aria-labelledby') || svg.querySelector('title'));
        // Charts and other drawings that are whole widgets name themselves through their role.
        const widget = ['application', 'graphics-document', 'figure'].includes(svg.getAttribute('role') ?? '') && (svg.getAttribute('aria-label') || svg.getAttribute('aria-labelledby'));
        if (!named && !widget) {
          findings.push({ rule: 'svg-hidden-or-named', element: describe(svg.parentElement ?? svg), detail: 'an <svg> neither hidden (aria-hidden) nor a named image' });
        }
      }
      for (const input of Array.from(root.querySelectorAll('input[type="email"]'))) {
        if (excluded(input) || !rendered(input)) continue;
        const token = normalise(input.getAttribute('autocomplete') ?? '');
        if (token.split(' ').pop() !== 'email') {
          findings.push({ rule: 'email-autocomplete', element: describe(input), detail: `autocomplete="${token}" does not identify an e-mail address (expected "email")` });
        }
      }
      const controls = root.querySelectorAll('button, a[href], [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="checkbox"], [role="radio"], [role="switch"], [role="option"]');
      for (const control of Array.from(controls)) {
        if (excluded(control) || !rendered(control) || hiddenFromAssistiveTech(control)) continue;
        if (!control.hasAttribute('aria-label') && !control.hasAttribute('aria-labelledby')) continue;
        const shown = visibleText(control);
        const name = accessibleName(control);
        if (shown && !name.includes(shown)) {
          findings.push({ rule: 'label-in-name', element: describe(control), detail: `the name "${name}" does not contain the visible text "${shown}"` });
        }
      }
    }
    return findings;
  }, { include: options.include ?? null, exclude: options.exclude ?? [] });
}

/** One readable block per finding, like the axe report. */
export function formatBeyondAxe(label: string, findings: readonly BeyondAxeFinding[]): string {
  const lines = [`${findings.length} WCAG 2.1 AA finding(s) beyond axe on ${label}:`];
  for (const finding of findings.slice(0, 10)) lines.push(`- ${finding.rule}: ${finding.detail}`, `    at ${finding.element}`);
  if (findings.length > 10) lines.push(`… and ${findings.length - 10} more`);
  return lines.join('\n');
}
