import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';

/** Seconds of a computed CSS time list such as '0.2s' or '1e-05s' (the longest, when several). */
const seconds = (value: string) => Math.max(...value.split(',').map((part) => parseFloat(part)));

/**
 * Someone whose system asks for less motion (prefers-reduced-motion) gets none (WCAG 2.3.3): dialogs, menus and
 * notifications appear at once and CSS animations run once, at once. Without the preference they move as designed.
 */
test.describe('Reduced motion', () => {
  for (const preference of ['reduce', 'no-preference'] as const) {
    const moves = preference === 'no-preference';
    test(`with prefers-reduced-motion: ${preference}, a dialog ${moves ? 'fades in' : 'appears at once'} and an animation ${moves ? 'repeats' : 'stops'}`, async ({ page, organisation }) => {
      await page.emulateMedia({ reducedMotion: preference });
      const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
      const dialog = await admins.openDialog(admins.addButton(), 'Add admins');
      const transition = seconds(await dialog.evaluate((element) => getComputedStyle(element).transitionDuration));
      if (moves) expect(transition).toBeGreaterThanOrEqual(0.1);
      else expect(transition).toBeLessThan(0.001);

      // Any animation on the page, as a spinning loader has: under the preference it ends at once.
      const animation = await page.evaluate(() => {
        const spinner = document.createElement('div');
        spinner.style.animation = 'spin 1s linear infinite';
        document.body.append(spinner);
        const style = getComputedStyle(spinner);
        const answer = { duration: style.animationDuration, count: style.animationIterationCount };
        spinner.remove();
        return answer;
      });
      if (moves) expect(animation).toEqual({ duration: '1s', count: 'infinite' });
      else expect({ duration: seconds(animation.duration) < 0.001, count: animation.count }).toEqual({ duration: true, count: '1' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
    });
  }
});
