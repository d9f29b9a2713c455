import { expect, type Locator } from '@playwright/test';
import { browserMessages } from '@quire/core';
import { BasePage } from './base-page.js';

/** /unsupported: where an unsupported browser is sent. */
export class UnsupportedPage extends BasePage {
  readonly path = '/unsupported';

  override async waitUntilReady(): Promise<void> {
    await expect(this.title()).toBeVisible();
  }

  title(): Locator {
    return this.page.getByRole('heading', { name: browserMessages.unsupportedTitle });
  }

  /** The download link of one of the listed browsers. */
  browserLink(name: string | RegExp): Locator {
    return this.page.getByRole('link', { name });
  }
}
