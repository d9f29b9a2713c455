import { expect, test } from '../../fixtures/auth.js';

test.describe('a signed-in session (the signedInPage fixture)', () => {
  test('opens the organisation home without signing in again, also after a reload', async ({ signedInPage, organisation }) => {
    await expect(signedInPage).toHaveURL(new RegExp(`/${organisation.id}$`));
    await expect(signedInPage.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await signedInPage.reload();
    await expect(signedInPage).toHaveURL(new RegExp(`/${organisation.id}$`));
    await expect(signedInPage.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });

  test('a link to another of the admin’s organisations opens it directly', async ({ page, organisations, organisation }) => {
    const other = organisations.find((o) => o.id !== organisation.id);
    expect(other).toBeDefined();
    await page.goto(`/${other!.id}/teachers`);
    await expect(page).toHaveURL(new RegExp(`/${other!.id}/teachers$`));
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });

  test('the sign-in screens send a signed-in admin on into the console', async ({ page, organisation }) => {
    await page.goto('/sign-in/email');
    await expect(page).toHaveURL(new RegExp(`/${organisation.id}$`));
  });
});
