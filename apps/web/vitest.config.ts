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
    // 6 s and a Select-all test 35 s, and at a load of 20 (other work beside CI) a Select-all test passed 30 s: 90 s
    // there, 30 s elsewhere. No file sets its own, shorter one (a describe's timeout would override this one under CI).
    testTimeout: process.env.CI ? 90_000 : 30_000,
    // Files share a worker's jsdom and modules (jsdom and Mantine load once, not once per file: 4.6 → 1 min).
    // test/setup.ts resets what a test leaves behind: the DOM, notifications.
    isolate: false,
  },
});
