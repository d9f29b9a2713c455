import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { demoAdmin } from '../../support/env.js';

/**
 * The Admin page across a district (docs/districts.md): the demo's Riverside Unified School District lists its own
 * admins and each school's with the school; a school lists the district's admins as 'District admin', not removable there.
 */

const DISTRICT = 'Riverside Unified School District';
const OAKWOOD = 'Oakwood Elementary School';

test.describe("A district's Admin page", () => {
  test("lists each school's admins with their school; a school shows the district's admins as District admin", async ({ page, organisations }) => {
    const district = organisations.find((o) => o.name === DISTRICT)!;
    const oakwood = organisations.find((o) => o.name === OAKWOOD)!;
    const admins = await new AdminsPage(page, test.info(), district.id).goto();
    const mine = admins.adminRow(demoAdmin.email);
    // The demo admin is an admin of the district and of each of its two schools: one row each, with the organisation.
    await expect(mine).toHaveCount(3);
    await expect(mine.filter({ hasText: OAKWOOD })).toHaveCount(1);
    await expect(mine.filter({ hasText: OAKWOOD })).toContainText(`Managed at ${OAKWOOD}`);
    await expect(mine.filter({ hasText: DISTRICT }).getByRole('button', { name: `Actions for ${demoAdmin.email}` })).toHaveCount(1);
    await admins.expectAccessible({ label: "district's admins with its schools'" });

    const school = await new AdminsPage(page, test.info(), oakwood.id).goto();
    const inherited = school.adminRow(demoAdmin.email).filter({ hasText: 'District admin' });
    await expect(inherited).toHaveCount(1);
    await expect(inherited).toContainText(DISTRICT);
    await expect(inherited).toContainText(`Set at ${DISTRICT}`);
    // Not removable at the school: no checkbox and no row menu on that row.
    await expect(inherited.getByRole('checkbox')).toHaveCount(0);
    await expect(inherited.getByRole('button', { name: /^Actions for/ })).toHaveCount(0);
    await school.expectAccessible({ label: "a school's admins with the district's" });
  });
});
