import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { checkAccessibility, type AccessibilityOptions } from '../support/axe.js';

/** How long a screen may take to first render: its lazily loaded chunks come first. */
export const SCREEN_LOAD_TIMEOUT = 20_000;

/**
 * What every page object shares: navigation that waits for the console to render and then runs axe,
 * dialog helpers that run axe on the dialog as it opens, and the notification banner.
 */
export abstract class BasePage {
  /** The route this page lives at, e.g. '/unsupported' or `/${orgId}/teachers`. */
  abstract readonly path: string;

  /** The main heading the page is ready with; when unset, any main heading. */
  protected readonly readyHeading?: string;

  constructor(
    readonly page: Page,
    /** Passed by tests as `test.info()` so axe results land in the report; null outside a test. */
    protected readonly testInfo: TestInfo | null = null,
  ) {}

  /**
   * Opens the page, waits for its heading, and checks it with axe. `{ accessible: 'checked elsewhere' }` skips
   * that check for a state another test of the same spec checks already (the caller names which in a comment).
   */
  async goto(options: { accessible?: 'check' | 'checked elsewhere' } = {}): Promise<this> {
    await this.page.goto(this.path);
    await this.waitUntilReady();
    if (options.accessible !== 'checked elsewhere') await this.expectAccessible();
    return this;
  }

  /** Resolves when the page has rendered; subclasses wait for something specific (a heading, a table). */
  async waitUntilReady(): Promise<void> {
    // A screen's first visit fetches its chunk (and the signed-in layout's): more than the default wait on a busy machine.
    const heading = this.readyHeading ? this.heading(this.readyHeading) : this.page.locator('h1').first();
    await expect(heading).toBeVisible({ timeout: SCREEN_LOAD_TIMEOUT });
  }

  /** The page's main heading. */
  heading(name?: string | RegExp): Locator {
    return name ? this.page.getByRole('heading', { level: 1, name }) : this.page.getByRole('heading', { level: 1 });
  }

  /** Runs axe on the whole page now. */
  async expectAccessible(options: AccessibilityOptions = {}): Promise<void> {
    await checkAccessibility(this.page, this.testInfo, options);
  }

  /** The open dialog (optionally by its accessible name). */
  dialog(name?: string | RegExp): Locator {
    return name ? this.page.getByRole('dialog', { name }) : this.page.getByRole('dialog');
  }

  /** Clicks what opens a dialog, waits for it, checks it with axe, and returns it. */
  async openDialog(trigger: Locator, name?: string | RegExp): Promise<Locator> {
    await trigger.click();
    const dialog = this.dialog(name);
    await expect(dialog).toBeVisible();
    await checkAccessibility(this.page, this.testInfo, { include: '[role="dialog"]', label: `dialog ${String(name ?? '')} on ${this.path}` });
    return dialog;
  }

  /** The notification banners (errors and info notices). */
  notification(text?: string | RegExp): Locator {
    const alerts = this.page.getByRole('alert');
    return text ? alerts.filter({ hasText: text }) : alerts;
  }
}

/**
 * A screen under /{orgId} (spec §2): its path is the organisation's and the screen's segment ('' for the licence
 * dashboard), and it is ready when its heading shows and then what `whenShown` waits for (a table, no loader).
 */
export abstract class OrganisationScreen extends BasePage {
  readonly path: string;

  constructor(
    page: Page,
    testInfo: TestInfo | null,
    orgId: string,
    segment: string,
    protected override readonly readyHeading: string,
  ) {
    super(page, testInfo);
    this.path = segment ? `/${encodeURIComponent(orgId)}/${segment}` : `/${encodeURIComponent(orgId)}`;
  }

  override async waitUntilReady(): Promise<void> {
    await super.waitUntilReady();
    await this.whenShown();
  }

  /** What the screen shows once its heading is there; nothing more by default. */
  protected async whenShown(): Promise<void> {}
}
