import type { Page } from '@playwright/test';

export interface OrganisationSummary {
  id: string;
  name: string;
}

/**
 * Signs the admin in through the console's screens (e-mail, Next, password, Sign in) on a page whose context has the
 * console's baseURL, and answers the organisations they administer (getOrganisations), as the benchmarks that measure
 * a signed-in screen need.
 */
export async function signInThroughScreens(page: Page, base: string, email: string, password: string): Promise<[OrganisationSummary, ...OrganisationSummary[]]> {
  await page.goto('/sign-in/email');
  await page.getByRole('textbox', { name: /^Email/ }).fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/sign-in/organisation' || !url.pathname.startsWith('/sign-in'));
  const answer = await page.request.post('/graphql', { headers: { origin: base }, data: { query: 'query getOrganisations { getOrganisations { id name } }' } });
  const organisations = ((await answer.json()) as { data: { getOrganisations: OrganisationSummary[] } }).data.getOrganisations;
  const [first, ...others] = organisations;
  if (!first) throw new Error(`${email} administers no organisation`);
  return [first, ...others];
}
