import { available, errorCatalogue, isProviderStaffEmail, ROLE_LIBRARY_MANAGER, toggledLibraryManagerRole, type Member, type OrganisationLicense } from '@quire/core';


/** Who is looking and at what kind of organisation: decides which actions the screen offers (spec §6). */
export interface TeacherScreenAccess {
  /** The acting user is a library manager, not an admin: the lists only, no changes. */
  readOnly: boolean;
  /** A domain-licence organisation: no individual licence assignment or removal, no import. */
  isDomain: boolean;
  /** Provider staff (the provider's e-mail domain) get the welcome e-mail in domain organisations. */
  providerStaff: boolean;
  /** Library managers exist only with orgLibraries on. */
  orgLibraries: boolean;
  /** The signed-in user's e-mail (lower case): their own row cannot be switched to a student. */
  selfEmail?: string;
  /**
   * A district's list (docs/districts.md): the district's id. Its licences go only to its own teachers; a school's
   * teacher is given a licence, made a library manager or has their libraries managed in their school.
   */
  districtId?: string;
}

/** Why the district's licences are not offered for a school's teachers (the server's own refusal, word for word). */
export const OTHER_SCHOOLS_LICENSE_NOTE = errorCatalogue.license_other_schools.message;

/** On a district's list, a teacher of one of its schools rather than the district's own. */
export function inOtherSchool(member: Pick<Member, 'organisation'>, access: Pick<TeacherScreenAccess, 'districtId'>): boolean {
  return access.districtId !== undefined && member.organisation !== undefined && member.organisation.id !== access.districtId;
}

/** The screen's access from the server's decision (useOrgAccess: admin or not) and the organisation's flags. */
export function teacherScreenAccess(input: {
  organisation: { isDomain: boolean; features: { orgLibraries: boolean } };
  isAdmin: boolean;
  userEmail: string | null | undefined;
  providerEmailDomain: string;
}): TeacherScreenAccess {
  const email = (input.userEmail ?? '').toLowerCase();
  return {
    readOnly: !input.isAdmin,
    isDomain: input.organisation.isDomain,
    providerStaff: email !== '' && isProviderStaffEmail(email, input.providerEmailDomain),
    orgLibraries: input.organisation.features.orgLibraries,
    selfEmail: email || undefined,
  };
}

/** The licences a teacher could be put on one by one: never an apply-to-all licence. */
export function assignableLicenses(licenses: OrganisationLicense[]): OrganisationLicense[] {
  return licenses.filter((l) => !l.applyToAll);
}

interface LicenseChoice {
  license: OrganisationLicense;
  disabled: boolean;
}

/** What the row menu of an active teacher offers; null entries are not shown. */
export interface RowActions {
  assignLicense: { disabled: boolean; choices: LicenseChoice[] } | null;
  sendWelcomeEmail: boolean;
  requestCertification: boolean;
  removeLicense: { disabled: boolean } | null;
  libraryManager: { label: 'Assign as Library Manager' | 'Remove as Library Manager'; role: number } | null;
  switchToStudent: { disabled: boolean };
}

export function rowActions(member: Member, licenses: OrganisationLicense[], access: TeacherScreenAccess): RowActions {
  const individual = !access.isDomain;
  const otherSchool = inOtherSchool(member, access);
  // A full licence can only fail: disabled, like the teacher's own and apply-to-all ones.
  const choices = licenses.map((license) => ({
    license,
    disabled: license.applyToAll || member.license?.id === license.id || available(license) <= 0,
  }));
  const isManager = member.role === ROLE_LIBRARY_MANAGER;
  return {
    // Disabled when the teacher's licence applies to all, or when there is no licence to give.
    assignLicense: individual
      ? { disabled: otherSchool || Boolean(member.license?.applyToAll) || choices.every((c) => c.disabled), choices: otherSchool ? [] : choices }
      : null,
    sendWelcomeEmail: individual || access.providerStaff,
    requestCertification: true,
    removeLicense: individual ? { disabled: member.license === null || member.license.applyToAll } : null,
    // Pending teachers have no role to change yet.
    // A school's teacher on a district's list: their school decides whether it has library managers.
    libraryManager:
      access.orgLibraries && !member.pending && !otherSchool
        ? { label: isManager ? 'Remove as Library Manager' : 'Assign as Library Manager', role: toggledLibraryManagerRole(member.role) }
        : null,
    // Pending teachers have no account yet; switching yourself would end your own admin access.
    switchToStudent: { disabled: member.pending || (access.selfEmail !== undefined && member.email.toLowerCase() === access.selfEmail) },
  };
}

/** The Library Manager badge shows only with orgLibraries (spec §2). */
export function showsLibraryManagerBadge(member: Pick<Member, 'role'>, access: Pick<TeacherScreenAccess, 'orgLibraries'>): boolean {
  return access.orgLibraries && member.role === ROLE_LIBRARY_MANAGER;
}

/** Bulk actions (spec §2): a licence to assign, Remove license, the two e-mails, Switch to student. */
export type BulkAction =
  | { kind: 'assign'; license: OrganisationLicense }
  | { kind: 'remove-license' }
  | { kind: 'welcome' }
  | { kind: 'certification' }
  | { kind: 'switch-to-student' }
  | { kind: 'remove-teacher' };

export interface BulkActionOption {
  value: string;
  label: string;
  action: BulkAction;
  /** Shown but not offered (e.g. a teacher-by-teacher action for more teachers than it takes at once). */
  disabled?: boolean;
}

/**
 * The bulk actions offered. `spansSchools`: on a district's list, the selection holds a school's teachers, so the
 * district's licences are shown but not offered (OTHER_SCHOOLS_LICENSE_NOTE says why).
 */
export function bulkActionOptions(licenses: OrganisationLicense[], access: TeacherScreenAccess, spansSchools = false): BulkActionOption[] {
  const options: BulkActionOption[] = [];
  if (!access.isDomain) {
    for (const license of assignableLicenses(licenses)) {
      options.push({ value: `assign:${license.id}`, label: `Assign ${license.name} license`, action: { kind: 'assign', license }, ...(spansSchools ? { disabled: true } : {}) });
    }
    options.push({ value: 'remove-license', label: 'Remove license', action: { kind: 'remove-license' } });
  }
  if (!access.isDomain || access.providerStaff) options.push({ value: 'welcome', label: 'Send welcome email', action: { kind: 'welcome' } });
  options.push({ value: 'certification', label: 'Request Certification', action: { kind: 'certification' } });
  options.push({ value: 'switch-to-student', label: 'Switch to student', action: { kind: 'switch-to-student' } });
  return options;
}

/** E-mail actions open a preview first, so their button reads 'Preview' instead of 'Apply'. */
export function isEmailAction(action: BulkAction | null | undefined): boolean {
  return action?.kind === 'welcome' || action?.kind === 'certification';
}

/** 'n teachers selected' ('1 teacher selected'). */
export function selectedText(count: number): string {
  return count === 1 ? '1 teacher selected' : `${count} teachers selected`;
}

/** Designed: the page is ticked and more teachers match. */
export function pageSelectedText(pageCount: number): string {
  return pageCount === 1 ? 'The 1 teacher on this page is selected.' : `All ${pageCount} teachers on this page are selected.`;
}

/** The link that selects every matching teacher across pages. */
export function selectAllText(total: number): string {
  return `Select all ${total} teachers`;
}

/** After 'Select all n teachers'. */
export function allSelectedText(total: number): string {
  return `All ${total} teachers are selected.`;
}
