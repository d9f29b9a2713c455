import { expect, type Page } from '@playwright/test';
import { listTeachers, type ApiMember } from '../teachers/teachers-api.js';

/** A library as GET {api}/{teacherId} answers it (docs/libraries-api.md). */
export interface ApiLibrary {
  id: string;
  name: string;
  bookCount: number;
  userCount: number;
  role: number;
  isPrivate: boolean;
  isOwner: boolean;
  joined: boolean;
}

export interface ApiLibraries {
  unarchived: ApiLibrary[];
  archived: ApiLibrary[];
}

export async function teacherLibraries(page: Page, orgId: string, memberId: string): Promise<ApiLibraries> {
  const answer = await page.request.get(`/api/${encodeURIComponent(memberId)}?organisationId=${encodeURIComponent(orgId)}`);
  expect(answer.ok()).toBeTruthy();
  return (await answer.json()) as ApiLibraries;
}

export async function bookCounts(page: Page, orgId: string, memberId: string): Promise<{ owned: number; private: number; total: number }> {
  const answer = await page.request.get(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/${encodeURIComponent(memberId)}/book-counts`);
  expect(answer.ok()).toBeTruthy();
  return (await answer.json()) as { owned: number; private: number; total: number };
}

/**
 * A signed-up teacher (never the demo admin) whose libraries pass the test, searched among the first
 * hundred; `skip` leaves out teachers another test of the run already uses.
 */
export async function findTeacherWith(
  page: Page,
  orgId: string,
  accept: (teacher: ApiMember, libraries: ApiLibraries) => boolean,
  skip: ReadonlySet<string> = new Set(),
): Promise<{ teacher: ApiMember; libraries: ApiLibraries }> {
  const { members } = await listTeachers(page, orgId, { pageSize: 100, sort: 'name' });
  for (const teacher of members) {
    if (teacher.pending || skip.has(teacher.email) || teacher.email.startsWith('admin@')) continue;
    const libraries = await teacherLibraries(page, orgId, teacher.id);
    if (accept(teacher, libraries)) return { teacher, libraries };
  }
  throw new Error('the demo organisation has a teacher with such libraries');
}

/** Visit is offered up to the Teacher level (600): Owner, Co-Teacher, Teacher. */
export const visitable = (library: ApiLibrary) => !library.isPrivate && library.role <= 600;
