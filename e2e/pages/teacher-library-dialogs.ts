import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { checkAccessibility } from '../support/axe.js';

/**
 * The teacher-libraries dialogs opened from the Teachers screen (spec §2 "Teacher library viewer",
 * "Teacher delete dialog", §4 wizard): the viewer, the reason picker, the Manage Teacher Libraries
 * wizard with Manage License, and Remove teacher. Every step is checked with axe as it appears.
 */
export class TeacherLibraryDialogs {
  constructor(
    readonly page: Page,
    private readonly testInfo: TestInfo | null = null,
  ) {}

  dialog(name: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** Waits for a dialog (or a new step of one) and runs axe on it. */
  async expectDialog(name: string | RegExp, label: string): Promise<Locator> {
    const dialog = this.dialog(name);
    await expect(dialog).toBeVisible();
    await checkAccessibility(this.page, this.testInfo, { include: '[role="dialog"]', label });
    return dialog;
  }

  // The viewer

  viewer(teacherName: string): Locator {
    return this.dialog(`${teacherName}’s libraries`);
  }

  librariesTable(tab: 'All' | 'Archived' = 'All'): Locator {
    return this.page.getByRole('table', { name: tab === 'All' ? 'All libraries' : 'Archived libraries' });
  }

  libraryRow(name: string, tab: 'All' | 'Archived' = 'All'): Locator {
    return this.librariesTable(tab).locator('tbody tr').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  tab(name: 'All' | 'Archived'): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }

  /** The Libraries and Books counts of the viewer's header, as their labels read. */
  count(label: 'Libraries' | 'Books'): Locator {
    return this.page.getByLabel(new RegExp(`^${label}: \\d+\\.`));
  }

  visitButton(libraryName: string): Locator {
    return this.libraryRow(libraryName).getByRole('button', { name: `Visit ${libraryName} (opens in a new tab)` });
  }

  // The reason picker

  async chooseReason(reason: string, otherText?: string): Promise<void> {
    const picker = await this.expectDialog('Reason for visit', 'visit reason picker');
    await picker.getByRole('radio', { name: reason }).check();
    if (otherText !== undefined) await picker.getByRole('textbox', { name: /Other reason/ }).fill(otherText);
    await picker.getByRole('button', { name: 'Visit library' }).click();
  }

  // The wizard and the delete dialog

  async chooseAction(dialog: Locator, label: RegExp): Promise<void> {
    await dialog.getByRole('radio', { name: label }).check();
    await dialog.getByRole('button', { name: 'Next' }).click();
  }

  /** Picks the receiving teacher or admin by typing part of their name or e-mail. */
  async pickTarget(dialog: Locator, kind: 'Teacher' | 'Admin', search: string, option: string | RegExp): Promise<void> {
    const box = dialog.getByRole('combobox', { name: new RegExp(`^${kind}`) });
    await box.click();
    await box.fill(search);
    await this.page.getByRole('option', { name: option }).click();
  }
}
