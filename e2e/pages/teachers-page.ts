import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen, SCREEN_LOAD_TIMEOUT } from './base-page.js';

/** /{orgId}/teachers: teacher management (spec §2 "Teachers"), in the words a user sees. */
export class TeachersPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'teachers', 'Teachers');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.table().or(this.page.getByText(/No teachers found|You don't have any teachers/))).toBeVisible({ timeout: SCREEN_LOAD_TIMEOUT });
  }

  tab(name: 'Active' | 'Inactive'): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  async openTab(name: 'Active' | 'Inactive'): Promise<void> {
    await this.tab(name).click();
    await expect(this.tab(name)).toHaveAttribute('aria-selected', 'true');
    await this.waitUntilReady();
  }

  searchBox(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search teachers' });
  }

  /**
   * Types a search and waits until its rows are shown: until then the table keeps the previous rows, marked
   * aria-busy, and a row found there may move or go (a menu opened on it then moves with it).
   */
  async search(text: string): Promise<void> {
    await this.searchBox().fill(text);
    await expect(this.page.locator('table[aria-busy="true"]')).toHaveCount(0);
  }

  table(): Locator {
    return this.page.getByRole('table', { name: /^(Active|Inactive) teachers$/ });
  }

  /** Data rows (the header row left out). */
  rows(): Locator {
    return this.table().locator('tbody tr');
  }

  /** A teacher's row, by the e-mail it shows (in its own cell, or under the name on a phone). */
  teacherRow(email: string): Locator {
    return this.rows().filter({ has: this.page.getByText(email, { exact: true }) });
  }

  /** The e-mail address of each row (the Email column keeps it, on a phone with the name and details around it). */
  emailCells(): Locator {
    return this.rows().getByText(/@/);
  }

  importButton(): Locator {
    return this.page.getByRole('button', { name: 'Import Teachers' });
  }

  exportButton(): Locator {
    return this.page.getByRole('button', { name: 'Export as CSV' });
  }

  rowMenuButton(email: string): Locator {
    return this.page.getByRole('button', { name: `Actions for ${email}` });
  }

  /** Opens a row's action menu and checks it with axe. */
  async openRowMenu(email: string): Promise<Locator> {
    await this.rowMenuButton(email).click();
    const menu = this.page.getByRole('menu');
    await expect(menu.first()).toBeVisible();
    await this.expectAccessible({ include: '[role="menu"]', label: `row menu of ${email}` });
    return menu.first();
  }

  menuItem(name: string | RegExp): Locator {
    return this.page.getByRole('menuitem', { name });
  }

  selectRow(email: string): Locator {
    return this.page.getByRole('checkbox', { name: `Select ${email}` });
  }

  bulkBar(): Locator {
    return this.page.getByRole('region', { name: 'Bulk actions' });
  }

  async chooseBulkAction(label: string): Promise<void> {
    await this.bulkBar().getByRole('combobox', { name: 'Bulk Actions' }).click();
    await this.page.getByRole('option', { name: label }).click();
  }

  /** The Active list's filters: 'Signed up', 'License', 'Certification'; a district's list adds 'School'. */
  filter(label: 'Signed up' | 'License' | 'Certification' | 'School'): Locator {
    return this.page.getByRole('group', { name: 'Filter teachers' }).getByRole('combobox', { name: label });
  }

  /** Opens a filter's list (checked with axe), picks the option and waits until the select shows it. */
  async chooseFilter(label: 'Signed up' | 'License' | 'Certification' | 'School', option: string): Promise<void> {
    await this.filter(label).click();
    await expect(this.page.getByRole('listbox')).toBeVisible();
    await this.expectAccessible({ label: `filter ${label} open` });
    await this.page.getByRole('option', { name: option, exact: true }).click();
    await expect(this.filter(label)).toHaveValue(option);
  }

  /** 'Select all n teachers' in the bulk bar, once the page's rows are all ticked. */
  selectAllMatching(total: number): Locator {
    return this.bulkBar().getByRole('button', { name: `Select all ${total} teachers` });
  }

  pageSizeSelect(): Locator {
    return this.page.getByRole('combobox', { name: 'Rows per page' });
  }

  pageButton(n: number): Locator {
    return this.page.getByRole('button', { name: `Page ${n}`, exact: true });
  }

  /** The paging control's Next or Previous arrow. */
  stepButton(step: 'next' | 'previous'): Locator {
    return this.page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: `${step} page`, exact: true });
  }

  sortButton(column: 'Name' | 'Email' | 'Signed up' | 'License' | 'Removed'): Locator {
    return this.table().getByRole('columnheader', { name: new RegExp(`^${column}`) }).getByRole('button');
  }

  /** Opens Import Teachers, enters the addresses and goes to the validated list. */
  async startImport(text: string): Promise<Locator> {
    const dialog = await this.openDialog(this.importButton(), 'Import Teachers');
    await dialog.getByRole('textbox', { name: /Teacher email addresses/ }).fill(text);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await this.expectAccessible({ include: '[role="dialog"]', label: 'import list' });
    return dialog;
  }

  /** Chooses a row menu entry (opening the menu first); returns the dialog it opens, if named. */
  async rowAction(email: string, item: string, dialogName?: string): Promise<Locator | null> {
    await this.openRowMenu(email);
    if (!dialogName) {
      await this.menuItem(item).click();
      return null;
    }
    return this.openDialog(this.menuItem(item), dialogName);
  }

  /** Runs a bulk action on the selected teachers; returns the dialog it opens. */
  async applyBulk(label: string, dialogName?: string): Promise<Locator | null> {
    await this.chooseBulkAction(label);
    const apply = this.bulkBar().getByRole('button', { name: /^(Apply|Preview)$/ });
    if (!dialogName) {
      await apply.click();
      return null;
    }
    return this.openDialog(apply, dialogName);
  }

  /** Walks the e-mail flow from 'Review message details' to 'Your message has been sent'. */
  async sendEmailFrom(dialog: Locator, message?: string): Promise<void> {
    await expect(dialog.getByRole('textbox', { name: 'Subject' })).not.toHaveValue('');
    if (message !== undefined) await dialog.getByRole('textbox', { name: 'Message' }).fill(message);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect(this.dialog('Confirm recipients and send')).toBeVisible();
    await this.expectAccessible({ include: '[role="dialog"]', label: 'confirm recipients' });
    await this.dialog('Confirm recipients and send').getByRole('button', { name: 'Send' }).click();
    await expect(this.dialog('Your message has been sent')).toBeVisible();
    await this.expectAccessible({ include: '[role="dialog"]', label: 'message sent' });
  }
}
