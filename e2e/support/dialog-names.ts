import type { Page } from '@playwright/test';

type Watched = Window & { quireNamelessDialog?: boolean };

/**
 * Starts noting, on every change of the page, whether a dialog is there without an accessible name (no aria-label, and
 * no text in what aria-labelledby names): a dialog that empties its title while it fades out is one, for a moment
 * that axe at the end of a test may or may not catch.
 */
export async function watchForNamelessDialogs(page: Page): Promise<void> {
  await page.evaluate(() => {
    const watched = window as Watched;
    watched.quireNamelessDialog = false;
    const check = () => {
      for (const dialog of Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]'))) {
        const labelledBy = (dialog.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
        const name = [dialog.getAttribute('aria-label') ?? '', ...labelledBy.map((id) => document.getElementById(id)?.textContent ?? '')].join('');
        if (!name.trim()) watched.quireNamelessDialog = true;
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/** Whether a dialog without a name was on the page since watchForNamelessDialogs. */
export async function namelessDialogSeen(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as Watched).quireNamelessDialog === true);
}
