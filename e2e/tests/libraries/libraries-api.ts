import { expect, type Page } from '@playwright/test';
import { bookCountsSchema, teacherLibrariesSchema, type BookCounts, type Library, type Member, type TeacherLibraries } from '@quire/core';
import { checked } from '../../support/contracts.js';
import { listTeachers } from '../teachers/teachers-api.js';

/** GET {api}/{teacherId}: a teacher's libraries (docs/libraries-api.md), checked against the contract. */
export async function teacherLibraries(page: Page, orgId: string, memberId: string): Promise<TeacherLibraries> {
  const answer = await page.request.get(`/api/${encodeURIComponent(memberId)}?organisationId=${encodeURIComponent(orgId)}`);
  expect(answer.ok()).toBeTruthy();
  return checked(teacherLibrariesSchema, await answer.json(), 'GET {api}/{teacherId}');
}

export async function bookCounts(page: Page, orgId: string, memberId: string): Promise<BookCounts> {
  const answer = await page.request.get(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/${encodeURIComponent(memberId)}/book-counts`);
  expect(answer.ok()).toBeTruthy();
  return checked(bookCountsSchema, await answer.json(), 'GET …/book-counts');
}

/**
 * A signed-up teacher (never the demo admin) whose libraries pass the test, searched among the first
 * hundred; `skip` leaves out teachers another test of the run already uses.
 */
export async function findTeacherWith(
  page: Page,
  orgId: string,
  accept: (teacher: Member, libraries: TeacherLibraries) => boolean,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ teacher: Member; libraries: TeacherLibraries }> {
  const { members } = await listTeachers(page, orgId, { pageSize: 100, sort: 'name' });
  for (const teacher of members) {
    if (teacher.pending || skip.has(teacher.email) || teacher.email.startsWith('admin@')) continue;
    const libraries = await teacherLibraries(page, orgId, teacher.id);
    if (accept(teacher, libraries)) return { teacher, libraries };
  }
  throw new Error('the demo organisation has a teacher with such libraries');
}

/** Visit is offered up to the Teacher level (600): Owner, Co-Teacher, Teacher. */
export const visitable = (library: Library) => !library.isPrivate && library.role <= 600;
