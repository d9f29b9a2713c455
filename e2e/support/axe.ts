import AxeBuilder from '@axe-core/playwright';
import type { Frame, Page, TestInfo } from '@playwright/test';
import axeCore from 'axe-core';
import { findBeyondAxe, formatBeyondAxe } from './beyond-axe.js';

/**
 * Whether this run checks accessibility: yes unless E2E_ACCESSIBILITY=off. CI's second pass (PostgreSQL) turns it off:
 * what axe and the checks beyond it find depends on the page, not on the database behind it, and the first pass
 * (PGlite) runs every check on the same screens (scripts/ci-test.mjs).
 */
export const ACCESSIBILITY_CHECKED = process.env.E2E_ACCESSIBILITY !== 'off';

/** The WCAG levels every page and dialog must meet. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Violations of these impacts fail a test; minor and moderate ones are attached to the report only. */
const FAILING_IMPACTS = ['serious', 'critical'] as const;

export interface AccessibilityOptions {
  /** Check only this part of the page, e.g. '[role="dialog"]'. */
  include?: string;
  /** Leave out parts the console does not own (third-party widgets). */
  exclude?: string[];
  /** Rule ids to skip, each with a reason in the calling code. */
  disableRules?: string[];
  /** Names the check in the report, e.g. 'teachers page' or 'import dialog'. */
  label?: string;
  /** Skip the check when the page's DOM has not changed since its last whole-page check (end-of-test check). */
  skipIfUnchanged?: boolean;
}

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type Violation = AxeResults['violations'][number];

/** Thrown when a page or dialog has serious or critical violations; its message lists each one. */
export class AccessibilityError extends Error {
  override name = 'AccessibilityError';
}

/**
 * Runs axe on the page (or a part of it) once animations have settled, then the WCAG checks axe does not
 * make (support/beyond-axe.ts), attaches the full results to the test report, and throws an
 * AccessibilityError listing every serious or critical violation and every finding beyond axe.
 */
export async function checkAccessibility(page: Page, testInfo: TestInfo | null, options: AccessibilityOptions = {}): Promise<void> {
  if (!ACCESSIBILITY_CHECKED) return;
  const wholePage = !options.include && !options.exclude?.length && !options.disableRules?.length;
  // The end-of-test check repeats nothing: a page unchanged since its last whole-page check has the same result.
  if (options.skipIfUnchanged && wholePage && (await unchangedSinceLastCheck(page))) return;
  await settle(page);
  // Legacy mode runs axe in the page itself: the default mode opens a blank page per check to merge the
  // frames' results, which cost more than the audit on a busy machine. Same rules, same frames.
  // AxeBuilder sends axe's source (570 kB) to every frame twice per check; it is put in each document once instead,
  // and the builder is given an empty source.
  await injectAxeOnce(page);
  let builder = new AxeBuilder({ page, axeSource: ';' }).withTags(AXE_TAGS).setLegacyMode(true).options({ resultTypes: ['violations'] });
  if (options.include) builder = builder.include(options.include);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  let results = await builder.analyze();
  // A contrast failure met while something faded (a notification closing on its own timer after the wait above,
  // measured half-transparent: 1.01:1) is checked once more after the page settles again; a real one stays.
  if (results.violations.some((v) => v.id === 'color-contrast')) {
    await page.waitForTimeout(500);
    await settle(page);
    results = await builder.analyze();
  }
  if (wholePage) await watchForChanges(page);

  const label = options.label ?? describeTarget(page, options.include);
  if (testInfo) {
    await testInfo.attach(`axe: ${label}`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  }
  const beyond = await findBeyondAxe(page, { include: options.include, exclude: options.exclude });
  if (testInfo && beyond.length) {
    await testInfo.attach(`beyond axe: ${label}`, { body: JSON.stringify(beyond, null, 2), contentType: 'application/json' });
  }
  const failing = results.violations.filter((v) => (FAILING_IMPACTS as readonly string[]).includes(v.impact ?? ''));
  const reports = [failing.length ? formatViolations(label, failing) : '', beyond.length ? formatBeyondAxe(label, beyond) : ''].filter(Boolean);
  if (reports.length) throw new AccessibilityError(reports.join('\n'));
}

/**
 * Puts axe in every frame of the page that lacks it. A document keeps it until it is replaced, so later checks of a
 * single-page console's screens send and compile nothing. On an idle machine axe takes 0.2 s to compile in a document
 * and 0.1 s each time it is sent again, which AxeBuilder did twice per check (docs/performance-log.md). As in
 * AxeBuilder, an inner frame gets a second to answer and is skipped when it does not (one still loading, or gone).
 */
async function injectAxeOnce(page: Page): Promise<void> {
  const inject = async (frame: Frame) => {
    const present = await frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
    if (!present) await frame.evaluate(axeCore.source);
  };
  for (const frame of page.frames()) {
    const done = frame === page.mainFrame() ? inject(frame) : Promise.race([inject(frame), new Promise((resolve) => setTimeout(resolve, 1000))]);
    await done.catch(() => undefined);
  }
}

/** One readable block per violation: impact, rule, help, link, and the offending elements. */
function formatViolations(label: string, violations: readonly Violation[]): string {
  const lines = [`${violations.length} serious or critical accessibility violation(s) on ${label}:`];
  for (const v of violations) {
    lines.push(`- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes.slice(0, 5)) {
      lines.push(`    at ${node.target.join(' ')}`);
      const summary = node.failureSummary?.split('\n').map((s) => s.trim()).filter(Boolean).join(' ');
      if (summary) lines.push(`       ${summary}`);
    }
    if (v.nodes.length > 5) lines.push(`    … and ${v.nodes.length - 5} more element(s)`);
  }
  return lines.join('\n');
}

function describeTarget(page: Page, include?: string): string {
  let path = page.url();
  try {
    const u = new URL(path);
    path = u.pathname + u.search;
  } catch {
    // about:blank and data: URLs stay as they are.
  }
  return include ? `${include} on ${path}` : path;
}

/**
 * Waits (briefly) for CSS transitions and animations to finish: half-faded dialogs give false contrast failures.
 * Endless ones (a loader's spin) never finish and change no colour, so they are not waited for.
 */
async function settle(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
}

interface AxeWatch {
  __quireAxeClean?: boolean;
}

/** Marks the document clean and has any later change to it (nodes, attributes, text) mark it changed. */
async function watchForChanges(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const w = window as AxeWatch & { __quireAxeObserver?: MutationObserver };
      w.__quireAxeClean = true;
      if (w.__quireAxeObserver) return;
      w.__quireAxeObserver = new MutationObserver(() => {
        w.__quireAxeClean = false;
      });
      w.__quireAxeObserver.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    })
    .catch(() => undefined);
}

/** True when the document was checked whole and nothing in it has changed since (a new document starts unchecked). */
async function unchangedSinceLastCheck(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as AxeWatch).__quireAxeClean === true).catch(() => false);
}
