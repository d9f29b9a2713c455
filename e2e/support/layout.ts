import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The element lies wholly inside the window, horizontally: reachable without scrolling sideways. Checked until it holds
 * (up to the expect timeout): right after a resize, a table that drops columns once its frame is measured narrow lays
 * itself out a frame later, and a loaded machine may take a while to draw that frame.
 */
export async function expectWithinWidth(page: Page, element: Locator): Promise<void> {
  await expect(element).toBeVisible();
  const width = page.viewportSize()?.width ?? 0;
  let box: Awaited<ReturnType<Locator['boundingBox']>> = null;
  await expect
    .poll(async () => {
      box = await element.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= width;
    }, { message: `within 0–${width} px` })
    .toBe(true)
    .catch((error: unknown) => {
      throw new Error(`within 0–${width} px: ${JSON.stringify(box)}`, { cause: error });
    });
}

/**
 * Every line of text inside the element lies within its box, horizontally: none runs past its edge, cut off or
 * overlapping (a long e-mail address without a break, say). Text inside a part that scrolls sideways is left out.
 */
export async function expectTextWithin(element: Locator): Promise<void> {
  await expect(element).toBeVisible();
  const outside = await element.evaluate((root) => {
    const box = root.getBoundingClientRect();
    const found: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? '';
      if (!text) continue;
      let scrolls = false;
      for (let parent = node.parentElement; parent && parent !== root; parent = parent.parentElement) {
        if (/(auto|scroll)/.test(getComputedStyle(parent).overflowX)) scrolls = true;
      }
      if (scrolls) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width > 0 && (rect.left < box.left - 0.5 || rect.right > box.right + 0.5)) found.push(`'${text}' at ${Math.round(rect.left)}–${Math.round(rect.right)} px`);
      }
    }
    return { found, box: `${Math.round(box.left)}–${Math.round(box.right)} px` };
  });
  expect(outside.found, `text outside ${outside.box}`).toEqual([]);
}

/** The table's scrolling frame has nothing to scroll sideways: the table is no wider than the room it has. */
export async function expectTableFits(table: Locator): Promise<void> {
  const overflow = await table.evaluate((element) => {
    for (let frame = element.parentElement; frame; frame = frame.parentElement) {
      if (/(auto|scroll)/.test(getComputedStyle(frame).overflowX)) return frame.scrollWidth - frame.clientWidth;
    }
    return 0;
  });
  expect(overflow, 'px the table would scroll sideways').toBeLessThanOrEqual(0);
}

/** Nothing on the page is wider than the window (no sideways scrolling of the whole page). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** A layout shift the page saw without input just before it: how much moved, and the text of what moved. */
export type LayoutShift = { value: number; moved: string[] };

/**
 * Loads the next page four times slower, as Lighthouse's phone does (what arrives late is then drawn in more than
 * one frame), and records every layout shift from before its first script runs. Answers a function that gives
 * the shifts seen so far, once the frame that made the last of them is reported.
 */
export async function recordLayoutShifts(page: Page): Promise<() => Promise<LayoutShift[]>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    const shifts: LayoutShift[] = [];
    Object.assign(window, { quireLayoutShifts: shifts });
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, moved: (entry.sources ?? []).map((s) => (s.node?.textContent ?? '').slice(0, 60)) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return async () => {
    // Shifts are reported after the frame that made them.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    return page.evaluate(() => (window as unknown as { quireLayoutShifts: LayoutShift[] }).quireLayoutShifts);
  };
}

/** The sum of the shifts' values: what Lighthouse and Web Vitals call cumulative layout shift for one load. */
export const totalShift = (shifts: LayoutShift[]): number => shifts.reduce((sum, s) => sum + s.value, 0);
