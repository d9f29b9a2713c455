import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach } from 'vitest';

// findBy… and waitFor wait up to 5 s instead of 1 s: a screen's first render (Mantine, lazy chunks, a table of 100
// rows) can take over a second on a loaded 2-core machine, and a test that only times out there proves nothing. Under
// CI, beside the end-to-end suite on two cores, a Teachers table took over 5 s: 15 s there. (The console's types have
// no Node globals, so `process` is read through globalThis.)
const ci = Boolean((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.CI);
configure({ asyncUtilTimeout: ci ? 15_000 : 5_000 });

afterEach(() => {
  cleanup();
  // Notifications live in a store outside React: one test's would fill the visible limit of the next.
  notifications.clean();
});

// jsdom lacks a few browser APIs Mantine relies on.

/** Evaluates (min-width: Npx) / (max-width: Npx) against window.innerWidth, so tests can resize. */
function matches(query: string): boolean {
  const min = /min-width:\s*([\d.]+)(px|em)/.exec(query);
  const max = /max-width:\s*([\d.]+)(px|em)/.exec(query);
  const toPx = (value: string, unit: string) => Number(value) * (unit === 'em' ? 16 : 1);
  const width = window.innerWidth;
  if (min && width < toPx(min[1] ?? '0', min[2] ?? 'px')) return false;
  if (max && width > toPx(max[1] ?? '0', max[2] ?? 'px')) return false;
  return Boolean(min || max);
}

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string): MediaQueryList => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver ??= ResizeObserverStub;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
