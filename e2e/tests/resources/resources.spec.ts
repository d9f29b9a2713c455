import { COVER_THUMBNAIL_WIDTH, FEATURED_BOOK_COUNT, SUBJECT_CARD_COUNT } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { ResourcesPage } from '../../pages/resources-page.js';

test.describe('Teacher Resources', () => {
  test('shows the grade heading without grade items, level cards, 8 subject cards opening in a new window, 9 featured covers and the promo cards', async ({ page, organisation }) => {
    const resources = await new ResourcesPage(page, test.info(), organisation.id).goto();
    await expect(resources.section('Resources by grade')).toBeVisible();
    // The spec: "a heading only; the grade items are not shown".
    for (const label of ['Elementary / Primary', 'High School / Secondary', 'Pre-Kindergarten / Kindergarten', 'Middle School']) {
      await expect(page.getByText(label, { exact: true })).toHaveCount(0);
    }
    await expect(resources.levelCards()).toHaveCount(4);
    await expect(resources.subjectCards()).toHaveCount(SUBJECT_CARD_COUNT);
    for (const card of await resources.subjectCards().all()) {
      await expect(card).toHaveAttribute('target', '_blank');
      await expect(card).toHaveAttribute('rel', /noopener/);
    }
    await expect(resources.section(/^Supercharge your .+ lessons$/)).toBeVisible();
    await expect(resources.featuredBooks()).toHaveCount(FEATURED_BOOK_COUNT);
    // Every cover is a real image the server sized to 250 px, in its own shape.
    await expect(page.locator('[data-cover-state="loaded"]')).toHaveCount(FEATURED_BOOK_COUNT, { timeout: 15_000 });
    const sizes = await page.locator('[data-cover-state="loaded"] img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => ({ width: img.naturalWidth, height: img.naturalHeight, shape: img.parentElement?.dataset.shape })));
    for (const size of sizes) {
      expect(size.width).toBe(COVER_THUMBNAIL_WIDTH);
      if (size.shape === 'landscape') expect(size.height).toBeLessThan(size.width);
      if (size.shape === 'portrait') expect(size.height).toBeGreaterThan(size.width);
      if (size.shape === 'square') expect(size.height).toBe(size.width);
    }
    expect(new Set(sizes.map((s) => s.shape))).toEqual(new Set(['landscape', 'square', 'portrait']));
    // Each opens the book in the reader site's fixed library.
    await expect(resources.featuredBooks().first()).toHaveAttribute('href', /^https?:\/\/.+\/.+\/example-/);
    for (const label of ['Join the discussion', 'Get your copy here', 'Learn more']) {
      await expect(resources.promo(label)).toHaveAttribute('target', '_blank');
    }
  });

  test('the level and subject cards show where keyboard focus is', async ({ page, organisation }) => {
    const resources = await new ResourcesPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await resources.subjectCards().first().focus();
    await page.keyboard.press('Shift+Tab');
    const level = resources.levelCards().last();
    await expect(level).toBeFocused();
    expect(await resources.focusOutline(level), 'a school-level card with focus shows a focus ring').toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const subject = resources.subjectCards().nth(1);
    await expect(subject).toBeFocused();
    expect(await resources.focusOutline(subject), 'a subject card with focus shows a focus ring').toBe(true);
  });

  test('a cover that fails is retried once after 2 seconds with a retry marker, then shows its title', async ({ page, organisation }) => {
    const requests: string[] = [];
    await page.route('**/assets/quire-examples/example-all-about-me*', async (route) => {
      requests.push(route.request().url());
      await route.fulfill({ status: 500, body: '' });
    });
    const resources = await new ResourcesPage(page, test.info(), organisation.id).goto();
    const cover = page.locator('[data-cover-state]').filter({ hasText: 'All About Me' });
    await expect(cover).toHaveAttribute('data-cover-state', 'failed', { timeout: 10_000 });
    await expect(cover.getByRole('img')).toHaveCount(0);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toContain(`width=${COVER_THUMBNAIL_WIDTH}`);
    expect(new URL(requests[0]!).searchParams.has('retry')).toBe(false);
    expect(new URL(requests[1]!).searchParams.get('retry')).toBe('1');
    // The link still names the book.
    await expect(resources.featuredBooks().filter({ hasText: 'All About Me' })).toHaveCount(1);
    await resources.expectAccessible();
  });

  test('a cover that fails once shows the image after its retry, never a broken image', async ({ page, organisation }) => {
    let failures = 0;
    const times: number[] = [];
    await page.route('**/assets/quire-examples/example-language-flashcards*', async (route) => {
      times.push(Date.now());
      if (failures++ === 0) await route.fulfill({ status: 404, body: '' });
      else await route.continue();
    });
    await new ResourcesPage(page, test.info(), organisation.id).goto();
    const img = page.getByRole('img', { name: 'Spanish Flashcards' });
    await expect(img).toBeVisible({ timeout: 10_000 });
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1900);
  });

  test('works with the keyboard alone: subject cards and books are reachable with Tab', async ({ page, organisation }) => {
    const resources = await new ResourcesPage(page, test.info(), organisation.id).goto();
    const firstSubject = resources.subjectCards().first();
    await resources.levelCards().last().focus();
    await page.keyboard.press('Tab');
    await expect(firstSubject).toBeFocused();
    await resources.subjectCards().last().focus();
    await page.keyboard.press('Tab');
    await expect(resources.featuredBooks().first()).toBeFocused();
  });
});
