import { describe, expect, it } from 'vitest';
import { buildLicense, buildMember } from '../../../test/fixtures.js';
import { bulkRemoveTeacherOffered } from './library-dialogs.js';
import { bulkActionOptions, rowActions, selectedText, teacherScreenAccess, type TeacherScreenAccess } from './teacher-access.js';

const admin: TeacherScreenAccess = { readOnly: false, isDomain: false, providerStaff: false, orgLibraries: true };
const standard = buildLicense({ id: 'std' });
const everyone = buildLicense({ id: 'all', name: 'District', applyToAll: true });

describe('row actions (spec §6)', () => {
  it('disables Assign license when the teacher’s licence applies to all, or when there is no licence to give', () => {
    const onAll = buildMember({ license: { id: 'all', name: 'District', bookQuota: 1000, libraryQuota: 'UNLIMITED', applyToAll: true } });
    expect(rowActions(onAll, [standard, everyone], admin).assignLicense?.disabled).toBe(true);
    expect(rowActions(buildMember(), [], admin).assignLicense?.disabled).toBe(true);
    expect(rowActions(buildMember(), [everyone], admin).assignLicense?.disabled).toBe(true);
    const free = rowActions(buildMember(), [standard, everyone], admin).assignLicense;
    expect(free?.disabled).toBe(false);
    expect(free?.choices.map((c) => c.disabled)).toEqual([false, true]);
  });

  it('disables Remove license without a licence and Switch to student while pending', () => {
    const pending = rowActions(buildMember({ pending: true }), [standard], admin);
    expect(pending.removeLicense?.disabled).toBe(true);
    expect(pending.switchToStudent.disabled).toBe(true);
    expect(pending.libraryManager).toBeNull();
  });

  it('never offers what can only fail: Switch to student on your own row, a full licence', () => {
    const me = buildMember({ email: 'Ada@School.test' });
    expect(rowActions(me, [standard], { ...admin, selfEmail: 'ada@school.test' }).switchToStudent.disabled).toBe(true);
    expect(rowActions(buildMember(), [standard], { ...admin, selfEmail: 'ada@school.test' }).switchToStudent.disabled).toBe(false);
    const full = { ...standard, id: 'lic-full', allocated: 5, quantity: 5 };
    const choices = rowActions(buildMember(), [standard, full], admin).assignLicense?.choices ?? [];
    expect(choices.find((c) => c.license.id === 'lic-full')?.disabled).toBe(true);
    expect(choices.find((c) => c.license.id === standard.id)?.disabled).toBe(false);
  });

  it('offers bulk Remove teacher to an ordinary admin only for a selection of pending teachers', () => {
    expect(bulkRemoveTeacherOffered(admin, [buildMember({ pending: true })])).toBe(true);
    expect(bulkRemoveTeacherOffered(admin, [buildMember({ pending: true }), buildMember({ pending: false })])).toBe(false);
    expect(bulkRemoveTeacherOffered({ ...admin, providerStaff: true }, [buildMember({ pending: false })])).toBe(true);
  });

  it('offers the library manager switch both ways only with orgLibraries', () => {
    expect(rowActions(buildMember({ role: 400 }), [], admin).libraryManager).toEqual({ label: 'Remove as Library Manager', role: 600 });
    expect(rowActions(buildMember({ role: 600 }), [], admin).libraryManager).toEqual({ label: 'Assign as Library Manager', role: 400 });
    expect(rowActions(buildMember({ role: 400 }), [], { ...admin, orgLibraries: false }).libraryManager).toBeNull();
  });

  it('hides individual licence changes in a domain organisation; provider staff keep the welcome e-mail', () => {
    const domain = { ...admin, isDomain: true };
    const actions = rowActions(buildMember(), [standard], domain);
    expect(actions.assignLicense).toBeNull();
    expect(actions.removeLicense).toBeNull();
    expect(actions.sendWelcomeEmail).toBe(false);
    expect(rowActions(buildMember(), [standard], { ...domain, providerStaff: true }).sendWelcomeEmail).toBe(true);
    expect(bulkActionOptions([standard], domain).map((o) => o.label)).toEqual(['Request Certification', 'Switch to student']);
  });

  it('lists the bulk actions with one entry per licence that can be given individually', () => {
    expect(bulkActionOptions([standard, everyone], admin).map((o) => o.label)).toEqual([
      'Assign Standard license',
      'Remove license',
      'Send welcome email',
      'Request Certification',
      'Switch to student',
    ]);
    expect(selectedText(1)).toBe('1 teacher selected');
    expect(selectedText(3)).toBe('3 teachers selected');
  });

  it('is read-only unless the user is an admin (the server decides: useOrgAccess), and recognises provider staff by domain', () => {
    const organisation = { isDomain: false, features: { orgLibraries: true } };
    expect(teacherScreenAccess({ organisation, isAdmin: true, userEmail: 'ada@school.test', providerEmailDomain: 'provider.test' }).readOnly).toBe(false);
    expect(teacherScreenAccess({ organisation, isAdmin: false, userEmail: 'morgan@school.test', providerEmailDomain: 'provider.test' }).readOnly).toBe(true);
    expect(teacherScreenAccess({ organisation, isAdmin: false, userEmail: 'sam@provider.test', providerEmailDomain: 'provider.test' }).providerStaff).toBe(true);
  });
});

describe("a district's list (docs/districts.md)", () => {
  const district: TeacherScreenAccess = { ...admin, districtId: 'riverside' };
  const own = buildMember({ organisation: { id: 'riverside', name: 'Riverside' } });
  const school = buildMember({ organisation: { id: 'oakwood', name: 'Oakwood' } });

  it("gives the district's licences to its own teachers only, and leaves a school's library managers to the school", () => {
    expect(rowActions(own, [standard], district).assignLicense).toMatchObject({ disabled: false });
    expect(rowActions(school, [standard], district).assignLicense).toEqual({ disabled: true, choices: [] });
    expect(rowActions(school, [standard], district).libraryManager).toBeNull();
    // Removal, the e-mails and Switch to student stay: each is made in the teacher's own school.
    expect(rowActions(school, [standard], district)).toMatchObject({ removeLicense: { disabled: true }, sendWelcomeEmail: true, requestCertification: true });
  });

  it('shows the licences but does not offer them for a selection that spans schools', () => {
    const options = bulkActionOptions([standard], district, true);
    expect(options.find((o) => o.value === 'assign:std')).toMatchObject({ disabled: true });
    expect(options.filter((o) => o.disabled).map((o) => o.value)).toEqual(['assign:std']);
  });
});
