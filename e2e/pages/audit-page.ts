import { expect, type Download, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** One row of the log as the screen shows it, read in either layout (on a phone the dropped columns sit under the action). */
export interface AuditScreenRow {
  entryId: string;
  /** The UTC time the row keeps for hover and focus (ISO 8601). */
  time: string;
  action: string;
  /** Everything the row says, to find the actor, target, details and IP in. */
  text: string;
}

/** /{orgId}/audit: the Audit log (Settings › Audit log). */
export class AuditLogPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string, query = '') {
    super(page, testInfo, orgId, `audit${query}`, 'Audit log');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.page.getByRole('status').filter({ has: this.page.getByLabel('Loading the audit log') })).toHaveCount(0);
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Audit log entries' });
  }

  rows(): Locator {
    return this.table().locator('tbody tr');
  }

  rowOf(entryId: string): Locator {
    return this.table().locator(`tbody tr[data-entry-id="${entryId}"]`);
  }

  /** The row's action: a button that opens the entry in full. */
  actionButton(row: Locator): Locator {
    return row.getByRole('button');
  }

  actor(): Locator {
    return this.page.getByRole('textbox', { name: 'Actor' });
  }

  action(): Locator {
    return this.page.getByRole('combobox', { name: 'Action' });
  }

  target(): Locator {
    return this.page.getByRole('textbox', { name: 'Target' });
  }

  from(): Locator {
    return this.page.getByLabel('From', { exact: true });
  }

  to(): Locator {
    return this.page.getByLabel('To', { exact: true });
  }

  outcome(): Locator {
    return this.page.getByRole('combobox', { name: 'Outcome' });
  }

  applyButton(): Locator {
    return this.page.getByRole('button', { name: 'Apply filters' });
  }

  clearButton(): Locator {
    return this.page.getByRole('button', { name: 'Clear filters' });
  }

  exportButton(): Locator {
    return this.page.getByRole('button', { name: 'Export CSV' });
  }

  /** Waits until the table shows the view of the URL's filters (no page being read). */
  async settled(): Promise<void> {
    await expect(this.page.getByLabel('Loading the audit log')).toHaveCount(0);
  }

  /** The rows on screen, in order. */
  async readRows(): Promise<AuditScreenRow[]> {
    await this.settled();
    return this.rows().evaluateAll((trs) =>
      trs.map((tr) => ({
        entryId: tr.getAttribute('data-entry-id') ?? '',
        time: tr.querySelector('time')?.getAttribute('datetime') ?? '',
        action: tr.querySelector('button')?.textContent?.trim() ?? '',
        text: (tr as HTMLElement).innerText.replace(/\s+/g, ' '),
      })),
    );
  }

  /** Clicks 'Export CSV' and answers the download. */
  async exportCsv(): Promise<Download> {
    const download = this.page.waitForEvent('download');
    await this.exportButton().click();
    return download;
  }
}

/**
 * Types a day into a date field with key presses. Chromium orders the field's parts by its own locale (the e2e
 * Chromium shows mm/dd/yyyy whatever the page's language), so the order is tried and the value checked.
 */
export async function typeDate(page: Page, field: Locator, day: string): Promise<void> {
  const [y, m, d] = day.split('-') as [string, string, string];
  for (const order of [`${m}${d}${y}`, `${d}${m}${y}`, `${y}${m}${d}`]) {
    // Focus from outside the field starts at its first part.
    await field.evaluate((el) => (el as HTMLInputElement).blur());
    await field.focus();
    await page.keyboard.type(order);
    if ((await field.inputValue()) === day) return;
  }
  await expect(field).toHaveValue(day);
}
