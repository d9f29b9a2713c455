import { describe, expect, it } from 'vitest';

describe('zod-config', () => {
  it('turns off the compiled parsers in the zod the schemas use, set before zod is loaded', async () => {
    await import('./zod-config.js');
    const { config } = await import('zod');
    expect(config().jitless).toBe(true);
  });
});
