import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The web project of the root runner: components and routes in jsdom with Testing Library.
export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // CI runs these beside the end-to-end suite on two cores, where a test that renders a page of teachers took about
    // 6 s: more time there than vitest's 5 s.
    testTimeout: process.env.CI ? 30_000 : 5_000,
    // Files share a worker's jsdom and modules (jsdom and Mantine load once, not once per file: 4.6 → 1 min).
    // test/setup.ts resets what a test leaves behind: the DOM, notifications.
    isolate: false,
  },
});
