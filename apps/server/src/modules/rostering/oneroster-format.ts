import type { HeaderRule } from './oneroster-csv.js';

/**
 * What Quire reads of OneRoster 1.2 and 1.1 CSV (1EdTech "OneRoster v1.2 CSV Tables", "OneRoster v1.1 CSV Tables"):
 * the manifest, orgs.csv, users.csv and (1.2) roles.csv. Other files the manifest names (classes, enrollments,
 * academic sessions, …) must be there as it says, and are not read.
 */

export type OneRosterVersion = '1.2' | '1.1';
export type ProcessingMode = 'bulk' | 'delta';

/** Every file of a OneRoster 1.2 CSV binding (1.1 has fewer): its manifest key is `file.<name>`. */
export const ONEROSTER_FILES = [
  'academicSessions', 'categories', 'classes', 'classResources', 'courses', 'courseResources', 'demographics', 'enrollments',
  'lineItemLearningObjectiveIds', 'lineItems', 'lineItemScoreScales', 'orgs', 'resources', 'results', 'resultLearningObjectiveIds',
  'resultScoreScales', 'roles', 'scoreScales', 'userProfiles', 'userResources', 'users',
] as const;

export const MANIFEST_HEADER: HeaderRule = { required: ['propertyName', 'value'], known: ['propertyName', 'value'] };

const ORG_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'];
export const ORGS_HEADER: HeaderRule = { required: ORG_COLUMNS, known: ORG_COLUMNS };

const USER_COLUMNS_COMMON = [
  'sourcedId', 'status', 'dateLastModified', 'enabledUser', 'username', 'userIds', 'givenName', 'familyName', 'middleName',
  'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password',
];
const USER_COLUMNS_11 = ['orgSourcedIds', 'role'];
const USER_COLUMNS_12 = ['userMasterIdentifier', 'resourceSourcedIds', 'preferredGivenName', 'preferredMiddleName', 'preferredFamilyName', 'primaryOrgSourcedId', 'pronouns'];

export function usersHeader(version: OneRosterVersion): HeaderRule {
  const required = ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'username', 'givenName', 'familyName', 'email'];
  return {
    required: version === '1.1' ? [...required, ...USER_COLUMNS_11] : required,
    // 1.1's organisation and role columns are accepted in a 1.2 file without roles.csv (some exports still send them).
    known: [...USER_COLUMNS_COMMON, ...USER_COLUMNS_11, ...(version === '1.2' ? USER_COLUMNS_12 : [])],
  };
}

const ROLE_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role', 'beginDate', 'endDate', 'orgSourcedId', 'userProfileSourcedId'];
export const ROLES_HEADER: HeaderRule = { required: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'], known: ROLE_COLUMNS };

/** What a OneRoster role means here: staff Quire imports, students it counts, and others it leaves out. */
export type RoleKind = 'teacher' | 'administrator' | 'aide' | 'student' | 'other';

const ROLE_KINDS: Record<string, RoleKind> = {
  teacher: 'teacher',
  aide: 'aide',
  // 1.1's one administrator role, and 1.2's kinds of administrator.
  administrator: 'administrator',
  principal: 'administrator',
  siteadministrator: 'administrator',
  districtadministrator: 'administrator',
  systemadministrator: 'administrator',
  student: 'student',
  guardian: 'other',
  parent: 'other',
  relative: 'other',
  proctor: 'other',
};

/** The kind of a role as the file spells it (compared without case), or null for a role OneRoster does not define. */
export function roleKind(role: string): RoleKind | null {
  return ROLE_KINDS[role.toLowerCase()] ?? null;
}

/** A value a spreadsheet would run as a formula when the data is opened in one (CSV injection). */
export function isFormulaCell(value: string): boolean {
  return /^[=+\-@\t\r]/.test(value);
}
