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
  },
});
