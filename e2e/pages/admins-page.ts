import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { OrganisationScreen } from './base-page.js';

/** /{orgId}/admin: the Admin dashboard (spec §2). */
export class AdminsPage extends OrganisationScreen {
  constructor(page: Page, testInfo: TestInfo | null, orgId: string) {
    super(page, testInfo, orgId, 'admin', 'Admin');
  }

  protected override async whenShown(): Promise<void> {
    await expect(this.table()).toBeVisible();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Admins' });
  }

  rows(): Locator {
    return this.table().locator('tbody tr');
  }

  adminRow(email: string): Locator {
    return this.rows().filter({ hasText: email });
  }

  addButton(): Locator {
    return this.page.getByRole('button', { name: 'Add admins' });
  }

  bulkBar(): Locator {
    return this.page.getByRole('region', { name: 'Bulk actions' });
  }

  selectRow(email: string): Locator {
    return this.page.getByRole('checkbox', { name: `Select ${email}` });
  }

  /** Opens 'Add admins', types the addresses and submits; returns the dialog. */
  async addAdmins(text: string): Promise<Locator> {
    const dialog = await this.openDialog(this.addButton(), 'Add admins');
    await dialog.getByRole('textbox', { name: /Email addresses/ }).fill(text);
    await dialog.getByRole('button', { name: 'Add admins' }).click();
    return dialog;
  }

  /** The row menu's 'Remove admin', confirmed in its dialog. */
  async removeAdmin(email: string): Promise<void> {
    await this.page.getByRole('button', { name: `Actions for ${email}` }).click();
    await expect(this.page.getByRole('menu')).toBeVisible();
    await this.expectAccessible({ include: '[role="menu"]', label: `admin row menu of ${email}` });
    const dialog = await this.openDialog(this.page.getByRole('menuitem', { name: 'Remove admin' }), 'Remove admin');
    await dialog.getByRole('button', { name: 'Remove admin' }).click();
  }
}
