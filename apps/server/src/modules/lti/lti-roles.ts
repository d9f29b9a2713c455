import type { AppUserKind } from '@quire/core';

/**
 * Which kind of user a launch's `roles` make: a teacher for instructor roles, a student for
 * learner roles and for anything unknown (the lowest privilege). Accepts every format platforms
 * send: short names (`Instructor`), LIS URNs (`urn:lti:role:ims/lis/Instructor/PrimaryInstructor`,
 * `urn:lti:instrole:ims/lis/Faculty`), LTI 1.3-style URIs (`http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor`),
 * comma-separated lists of them, in any case.
 */
const TEACHER_ROLES = new Set(['instructor', 'faculty', 'teachingassistant', 'contentdeveloper', 'administrator', 'staff']);

/** The main role of one entry: `urn:lti:role:ims/lis/TeachingAssistant/Grader` → `teachingassistant`. */
function mainRole(entry: string): string {
  let role = entry.trim();
  const hash = role.lastIndexOf('#');
  if (hash >= 0) role = role.slice(hash + 1);
  const lis = role.toLowerCase().indexOf('ims/lis/');
  if (lis >= 0) role = role.slice(lis + 'ims/lis/'.length);
  return (role.split('/')[0] ?? '').trim().toLowerCase();
}

export function userKindFromRoles(roles: string | undefined): AppUserKind {
  const entries = (roles ?? '').split(',').map(mainRole).filter(Boolean);
  return entries.some((r) => TEACHER_ROLES.has(r)) ? 'teacher' : 'student';
}
