import { expect, test } from '../fixtures.js';

test.describe('server health', () => {
  test('GET /healthz answers ok', async ({ request }) => {
    const response = await request.get('/healthz');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('GET /readyz reports the database in use', async ({ request }) => {
    const response = await request.get('/readyz');
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { status: string; database: string };
    expect(body.status).toBe('ok');
    expect(body.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  });
});
