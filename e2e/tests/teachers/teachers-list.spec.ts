import { teacherMessages } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { listTeachers } from './teachers-api.js';

test.describe('Teachers list', () => {
  test('pages through the teachers ten at a time, sorted by e-mail', { tag: '@phone' }, async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const first = await listTeachers(page, organisation.id, { page: 1, pageSize: 10 });
    expect(first.total).toBeGreaterThan(10);
    await expect(teachers.rows()).toHaveCount(10);
    await expect(teachers.emailCells()).toHaveText(first.members.map((m) => m.email));

    await teachers.pageButton(2).click();
    const second = await listTeachers(page, organisation.id, { page: 2, pageSize: 10 });
    await expect(teachers.emailCells()).toHaveText(second.members.map((m) => m.email));

    await teachers.pageSizeSelect().click();
    await page.getByRole('option', { name: '20', exact: true }).click();
    await expect(teachers.rows()).toHaveCount(20);
    await expect(teachers.pageButton(1)).toHaveAttribute('aria-current', 'page');

    await teachers.sortButton('Email').click();
    const descending = await listTeachers(page, organisation.id, { page: 1, pageSize: 20, dir: 'desc' });
    await expect(teachers.emailCells().first()).toHaveText(descending.members[0]?.email ?? '');
  });

  test('pages forward by Next and back by Previous through the cursors, showing the same rows as the page numbers', async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const pages = await Promise.all([1, 2, 3].map((n) => listTeachers(page, organisation.id, { page: n, pageSize: 10 })));
    expect(pages[0]!.total).toBeGreaterThan(30);
    const emails = (n: number) => pages[n - 1]!.members.map((m) => m.email);
    await expect(teachers.emailCells()).toHaveText(emails(1));

    /** Clicks Next or Previous and returns the list request it sent. */
    const step = async (which: 'next' | 'previous') => {
      const sent = page.waitForRequest((r) => r.method() === 'GET' && /\/members\/teachers\?/.test(r.url()));
      await teachers.stepButton(which).click();
      return new URL((await sent).url()).searchParams;
    };

    let sent = await step('next');
    expect([sent.get('page'), sent.has('after'), sent.has('before')]).toEqual(['2', true, false]);
    await expect(teachers.emailCells()).toHaveText(emails(2));
    sent = await step('next');
    expect([sent.get('page'), sent.has('after'), sent.has('before')]).toEqual(['3', true, false]);
    await expect(teachers.emailCells()).toHaveText(emails(3));
    await expect(teachers.pageButton(3)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(`21–30 of ${pages[0]!.total}`)).toBeVisible();
    await teachers.expectAccessible();

    sent = await step('previous');
    expect([sent.get('page'), sent.has('after'), sent.has('before')]).toEqual(['2', false, true]);
    await expect(teachers.emailCells()).toHaveText(emails(2));
    await expect(teachers.pageButton(2)).toHaveAttribute('aria-current', 'page');
    // Page 1 goes by number, without a cursor (still cached from the first visit, so maybe no request at all).
    await teachers.stepButton('previous').click();
    await expect(teachers.emailCells()).toHaveText(emails(1));
    await expect(teachers.pageButton(1)).toHaveAttribute('aria-current', 'page');
  });

  test('searches by e-mail or name on the server', async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const some = await listTeachers(page, organisation.id, { page: 3, pageSize: 10 });
    const target = some.members.find((m) => m.displayName) ?? some.members[0];
    if (!target) throw new Error('the demo organisation has teachers');

    await teachers.search(target.displayName.toUpperCase());
    await expect(teachers.teacherRow(target.email)).toBeVisible();

    await teachers.search(target.email);
    await expect(teachers.rows()).toHaveCount(1);
    await expect(teachers.teacherRow(target.email)).toBeVisible();

    await teachers.search('no-such-teacher-anywhere');
    await expect(page.getByText(teacherMessages.notFound)).toBeVisible();
  });

  test('shows removed teachers with their Removed date on the Inactive tab', async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.openTab('Inactive');
    await expect(teachers.table().getByRole('columnheader', { name: /^Removed/ })).toBeVisible();
    await expect(teachers.table().getByRole('columnheader', { name: /^Signed up/ })).toHaveCount(0);
    // The Removed date, in its own cell (beside the e-mail on a phone).
    await expect(teachers.rows().first().getByRole('cell').filter({ hasText: /^\d{1,2}(st|nd|rd|th) [A-Z][a-z]+ \d{4}$/ })).toHaveCount(1);
    // Inactive teachers cannot be selected.
    await expect(teachers.table().getByRole('checkbox')).toHaveCount(0);
  });
});
