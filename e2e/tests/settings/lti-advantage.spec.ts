import { expect, test } from '../../fixtures/auth.js';
import { LmsPage } from '../../pages/settings-pages.js';
import { exchangeLaunchToken, startE2ePlatform } from '../../support/lti-platform.js';
import { readConsoleConfig } from '../../support/contracts.js';
import { checkAccessibility } from '../../support/axe.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';
import { launchOrganisation } from './settings-api.js';

/**
 * LTI 1.3 as a new admin and their teachers and students meet it: the platform registered on the LMS Integration
 * screen by keyboard, then a teacher and a student opening the tool from a course of an independent platform (its own
 * keys, tokens signed with jose) and landing in the app, signed in; a teacher adding the tool's link by deep linking,
 * by keyboard, and a launch of that link landing on the chosen book.
 */
test('registers a platform by keyboard; a teacher and a student launch with LTI 1.3 into the app; a teacher adds a link to a book by deep linking', { tag: '@phone' }, async ({ page, browser, organisation, organisations }) => {
  const base = process.env.E2E_BASE_URL ?? '';
  // Not the organisations lms.spec.ts and lti-launch.spec.ts change.
  const changeable = await changeableOrganisation(page, organisations, organisation);
  const org = launchOrganisation(organisations, organisation, changeable);
  const lms = await new LmsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
  const tool = page.getByRole('table', { name: 'Tool values for LTI 1.3' });
  await expect(tool).toBeVisible();
  const loginUrl = (await tool.getByRole('row', { name: /OIDC login initiation URL/ }).locator('code').textContent()) ?? '';
  const launchUrl = (await tool.getByRole('row', { name: /Redirect URI/ }).locator('code').textContent()) ?? '';
  expect(loginUrl).toBe(`${base}/lti/1.3/login`);
  expect(launchUrl).toBe(`${base}/lti/1.3/launch`);
  await expect(tool.getByRole('row', { name: /Public JWKS URL/ })).toContainText(`${base}/lti/1.3/jwks`);
  await lms.expectAccessible({ label: 'LTI 1.3 section' });

  const platform = await startE2ePlatform({ loginUrl, launchUrl });
  // Its own name: the phone project runs this spec too, maybe at the same time on the same organisation, and a
  // retry finds what a timed-out attempt left.
  const platformName = `Simulated LMS ${platform.clientId.slice(-8)}`;
  try {
    // Keyboard only: focus Add platform, Enter; type each field and Tab to the next; Enter submits.
    const add = page.getByRole('button', { name: 'Add platform' });
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = lms.dialog('Add a learning platform');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await lms.expectAccessible({ include: '[role="dialog"]', label: 'add platform dialog' });
    for (const [label, value] of [
      ['Name', platformName],
      ['Issuer', platform.issuer],
      ['Client ID', platform.clientId],
      ['OIDC authorisation endpoint', platform.authEndpoint],
      ['Access token endpoint', platform.tokenEndpoint],
      ['JWKS URL', platform.jwksUrl],
      ['Deployment IDs', platform.deploymentId],
    ] as const) {
      await expect(dialog.getByLabel(label)).toBeFocused();
      await page.keyboard.type(value);
      if (label !== 'Deployment IDs') await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Save
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(add).toBeFocused();
    const platforms = page.getByRole('table', { name: 'Learning platforms' });
    await expect(platforms.getByRole('row', { name: new RegExp(platformName) })).toContainText(platform.clientId);
    await lms.expectAccessible({ label: 'LTI 1.3 platform registered' });

    const { appUrl } = await readConsoleConfig(page);
    for (const user of [
      { sub: `teacher-${Date.now().toString(36)}`, name: 'Tess Teacher', role: 'Instructor' as const, kind: 'teacher' },
      { sub: `student-${Date.now().toString(36)}`, name: 'Sam Student', role: 'Learner' as const, kind: 'student' },
    ]) {
      // The person's own browser: no console session.
      const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
      try {
        const course = await context.newPage();
        await course.goto(platform.coursePage(user));
        await course.getByRole('button', { name: 'Open the book tool' }).click();
        await course.waitForURL((url) => url.href.startsWith(`${appUrl.replace(/\/$/, '')}/lti`));
        await expect(course.getByRole('heading', { name: 'Product app' })).toBeVisible();
        const landed = new URL(course.url());
        expect(landed.searchParams.get('organisationId')).toBe(org.id);
        // The app exchanges the token from its own origin.
        const signedIn = await exchangeLaunchToken(course, base, landed.searchParams.get('token') ?? '');
        expect(signedIn.status).toBe(200);
        expect(signedIn.body.user?.name).toBe(user.name);
        expect(signedIn.body.user?.email).toMatch(/@lti\.invalid$/);
      } finally {
        await context.close();
      }
    }

    // Deep linking: a teacher adds the tool's link to the course and chooses a book, with the keyboard only.
    const teacher = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const course = await teacher.newPage();
      await course.goto(platform.coursePage({ sub: `linker-${Date.now().toString(36)}`, name: 'Lina Linker', role: 'Instructor', deepLink: true }));
      await course.getByRole('button', { name: 'Add the book tool' }).click();
      const group = course.getByRole('radiogroup', { name: 'What should this link open?' });
      await expect(group).toBeVisible();
      await expect(course.getByRole('heading', { level: 1, name: /Add .+ to your course/ })).toBeVisible();
      await checkAccessibility(course, test.info(), { label: 'deep linking picker' });
      const home = group.getByRole('radio', { name: /home page/ });
      const book = group.getByRole('radio', { name: 'A book' });
      const bookId = course.getByRole('textbox', { name: 'Book id' });
      const add = course.getByRole('button', { name: 'Add the link' });
      await expect(home).toBeChecked();
      // Tab into the group (its checked radio), an arrow chooses the book, Tab past the field: the id is missing.
      await course.keyboard.press('Tab');
      await expect(home).toBeFocused();
      await course.keyboard.press('ArrowDown');
      await expect(book).toBeChecked();
      await course.keyboard.press('Tab');
      await expect(bookId).toBeFocused();
      await course.keyboard.press('Tab');
      await expect(add).toBeFocused();
      await course.keyboard.press('Enter');
      // Asked again: the choice kept, the field invalid, described by the message, and focused.
      await expect(course.getByText(/Enter the book’s id/)).toBeVisible();
      await expect(book).toBeChecked();
      await expect(bookId).toBeFocused();
      await expect(bookId).toHaveAttribute('aria-invalid', 'true');
      await expect(bookId).toHaveAccessibleDescription(/Enter the book’s id/);
      await checkAccessibility(course, test.info(), { label: 'deep linking picker, book id missing' });
      await course.keyboard.type('e2e-book-7');
      await course.keyboard.press('Tab');
      await expect(add).toBeFocused();
      await course.keyboard.press('Enter');
      // The tool's answer is posted to the platform, which verifies it with the tool's published keys.
      await expect(course.getByRole('heading', { name: 'Link added' })).toBeVisible();
      const [answer] = platform.deepLinkAnswers();
      expect(answer?.ok, JSON.stringify(answer)).toBe(true);
      const items = answer?.ok ? (answer.claims['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Array<Record<string, unknown>>) : [];
      expect(items).toEqual([expect.objectContaining({ type: 'ltiResourceLink', url: launchUrl, custom: { target: 'book:e2e-book-7' } })]);

      // The link, launched from the course, lands on the book in the app.
      await course.goto(platform.coursePage({ sub: `linker-${Date.now().toString(36)}`, name: 'Lina Linker', role: 'Instructor', custom: { target: 'book:e2e-book-7' } }));
      await course.getByRole('button', { name: 'Open the book tool' }).click();
      await course.waitForURL((url) => url.href.startsWith(`${appUrl.replace(/\/$/, '')}/lti`));
      const landed = new URL(course.url());
      expect(Object.fromEntries([...landed.searchParams].filter(([k]) => k !== 'token'))).toEqual({ organisationId: org.id, target: 'book', bookId: 'e2e-book-7' });
    } finally {
      await teacher.close();
    }

    // Remove, after asking; focus goes back to the page.
    await platforms.getByRole('button', { name: `Remove ${platformName}` }).click();
    const confirm = lms.dialog('Remove learning platform');
    await expect(confirm).toBeVisible();
    await lms.expectAccessible({ include: '[role="dialog"]', label: 'remove platform dialog' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(platforms.getByRole('row', { name: new RegExp(platformName) })).toHaveCount(0);
  } finally {
    await platform.close();
  }
});
