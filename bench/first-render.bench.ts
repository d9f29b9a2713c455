/**
 * What the console's first render costs the browser's main thread, on /sign-in and on the Teachers screen signed in,
 * against a running console: the counterpart of bench/lighthouse.bench.ts with figures steady enough to compare two
 * builds on a shared machine (docs/performance.md, "First load").
 *
 *   npm start            (in another shell; or any running Quire with the demo district)
 *   npx tsx bench/first-render.bench.ts [--url http://localhost:3000] [--runs 7]
 *
 * For each page, in Debian's Chromium at a phone's width (412 px, Lighthouse's mobile viewport) with the CPU slowed
 * 4× (Lighthouse's mobile preset), from navigation until the page shows its content plus 1.5 s:
 *  - main-thread busy time (everything but idle in a CPU profile), median and least of the runs;
 *  - blocking time: the long tasks' time over 50 ms each, counted from the first contentful paint (what Lighthouse's
 *    Total Blocking Time adds up), and the longest task;
 *  - React's work, counted: commits, and components and elements rendered (through React's DevTools hook, which the
 *    production build calls too). These counts do not depend on the machine's load: a change that renders less
 *    shows here even when the timings' noise hides it.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { signInThroughScreens } from './sign-in.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    runs: { type: 'string', default: '7' },
    email: { type: 'string', default: process.env.DEMO_ADMIN_EMAIL ?? 'admin@demo.quire.school' },
    password: { type: 'string', default: process.env.DEMO_ADMIN_PASSWORD ?? 'quire-demo-1' },
  },
});
const BASE = values.url.replace(/\/$/, '');
const RUNS = Number(values.runs);
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const VIEWPORT = { width: 412, height: 823 };

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string } }>;
  samples: number[];
  timeDeltas: number[];
}

interface RenderCount {
  commits: number;
  /** Function and class components rendered, summed over commits. */
  components: number;
  /** Host elements (div, td…) rendered, summed over commits. */
  elements: number;
}

/**
 * Installed before the page's scripts: React calls the DevTools hook after every commit. A fiber counts as rendered
 * (a component) when React marked it as having done work (the PerformedWork flag), (an element) when it is new or
 * its props changed, and in both cases not in a subtree React left untouched (the same fiber with the same props and
 * state as when it was last counted). Plain JavaScript in a string: the page
 * runs it as it is (a function would be rewritten by the TypeScript loader with helpers the page lacks).
 */
const RENDER_COUNTER = `(() => {
  const counted = new WeakMap();
  const count = { commits: 0, components: 0, elements: 0 };
  window.__renderCount = count;
  const visit = (first) => {
    const stack = first ? [first] : [];
    while (stack.length > 0) {
      const fiber = stack.pop();
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
      const last = counted.get(fiber);
      if (last && last.props === fiber.memoizedProps && last.state === fiber.memoizedState) continue;
      // An element is rendered when it is new or its props changed; a component when it ran (PerformedWork).
      if (typeof fiber.type === 'string' ? last && fiber.alternate && fiber.alternate.memoizedProps === fiber.memoizedProps : (fiber.flags & 1) !== 1) continue;
      counted.set(fiber, { props: fiber.memoizedProps, state: fiber.memoizedState });
      if (typeof fiber.type === 'string') count.elements += 1;
      else if (typeof fiber.type === 'function' || (typeof fiber.type === 'object' && fiber.type !== null)) count.components += 1;
    }
  };
  // Long tasks and the first contentful paint, as the page saw them (Lighthouse's Total Blocking Time counts the
  // part of each task after FCP beyond 50 ms).
  const tasks = [];
  window.__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    onCommitFiberRoot: (_id, root) => {
      count.commits += 1;
      visit(root.current.child);
    },
  };
})();`;

function busyMs(profile: CpuProfile): number {
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let busy = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) busy += profile.timeDeltas[i] ?? 0;
  });
  return busy / 1000;
}

interface Blocking {
  /** Sum over long tasks after the first contentful paint of their time beyond 50 ms. */
  blocking: number;
  longest: number;
  fcp: number;
}

async function measure(context: BrowserContext, url: string, ready: string): Promise<{ busy: number; count: RenderCount; blocking: Blocking }> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1500);
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    const count = (await page.evaluate('window.__renderCount')) as RenderCount;
    const blocking = (await page.evaluate(`(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const fcp = paint ? paint.startTime : 0;
      let blocking = 0;
      let longest = 0;
      for (const [start, duration] of window.__longTasks) {
        longest = Math.max(longest, duration);
        const end = start + duration;
        if (end <= fcp) continue;
        const counted = end - Math.max(start, fcp);
        blocking += Math.max(0, Math.min(counted, duration - 50));
      }
      return { blocking, longest, fcp };
    })()`)) as Blocking;
    return { busy: busyMs(profile), count, blocking };
  } finally {
    await page.close();
  }
}

async function report(browser: Browser, label: string, url: string, ready: string, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<void> {
  const busy: number[] = [];
  const blocking: Blocking[] = [];
  let counts: RenderCount | undefined;
  for (let i = 0; i < RUNS; i += 1) {
    // A new context each run: a first visit, nothing cached.
    const context = await browser.newContext({ viewport: VIEWPORT, ...(storageState ? { storageState } : {}) });
    await context.addInitScript({ content: RENDER_COUNTER });
    try {
      const run = await measure(context, url, ready);
      busy.push(run.busy);
      blocking.push(run.blocking);
      counts = run.count;
    } finally {
      await context.close();
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  console.log(`\n${label} (${url}), ${RUNS} runs, CPU 4× slower, ${VIEWPORT.width} px`);
  console.log(`  main thread busy     median ${Math.round(median(busy))} ms, least ${Math.round(Math.min(...busy))} ms   [${busy.map(Math.round).join(' ')}]`);
  console.log(
    `  blocking time        median ${Math.round(median(blocking.map((b) => b.blocking)))} ms   [${blocking.map((b) => Math.round(b.blocking)).join(' ')}]; ` +
      `longest task median ${Math.round(median(blocking.map((b) => b.longest)))} ms; first contentful paint median ${Math.round(median(blocking.map((b) => b.fcp)))} ms`,
  );
  if (counts) console.log(`  React                ${counts.commits} commits, ${counts.components} components and ${counts.elements} elements rendered`);
}

async function main(): Promise<void> {
  console.log(`Load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await report(browser, 'Sign-in, signed out', `${BASE}/sign-in`, 'text=Sign in with email');

    const context = await browser.newContext({ baseURL: BASE, viewport: VIEWPORT });
    const [first] = await signInThroughScreens(await context.newPage(), BASE, values.email, values.password);
    const state = await context.storageState();
    await context.close();
    await report(browser, `Teachers screen, signed in (${first.name})`, `${BASE}/${encodeURIComponent(first.id)}/teachers`, 'table[aria-label="Active teachers"] tbody tr', state);
  } finally {
    await browser.close();
  }
  console.log(`\nLoad average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
