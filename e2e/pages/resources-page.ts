import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** /{orgId}/resources: 'Teacher Resources' (spec §2). */
export class ResourcesPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'resources', 'Teacher Resources');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.page.getByRole('heading', { level: 2, name: 'Resources by subject' })).toBeVisible();
  }

  section(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 2, name });
  }

  /** Whether the element draws a focus ring (an outline at least 2 px wide) as it is now. */
  async focusOutline(element: Locator): Promise<boolean> {
    return element.evaluate((el) => {
      const style = getComputedStyle(el);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    });
  }

  levelCards(): Locator {
    return this.page.getByTestId('level-card');
  }

  subjectCards(): Locator {
    return this.page.getByTestId('subject-card');
  }

  featuredBooks(): Locator {
    return this.page.getByTestId('featured-book');
  }

  /** The featured book's link, by title. */
  featuredBook(title: string): Locator {
    return this.featuredBooks().filter({ has: this.page.locator(`[data-cover-state]`) }).filter({ hasText: title }).or(
      this.featuredBooks().filter({ has: this.page.getByRole('img', { name: title }) }),
    );
  }

  promo(label: string): Locator {
    return this.page.getByRole('link', { name: new RegExp(`^${label}`) });
  }
}
