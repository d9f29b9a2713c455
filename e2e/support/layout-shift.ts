import type { Page } from '@playwright/test';

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
