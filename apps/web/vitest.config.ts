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
    // Files share a worker's jsdom and modules (jsdom and Mantine load once, not once per file: 4.6 → 1 min).
    // test/setup.ts resets what a test leaves behind: the DOM, notifications.
    isolate: false,
  },
});
