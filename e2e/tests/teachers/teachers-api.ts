import { expect, test, type Page } from '@playwright/test';
import { importTeachersResultSchema, membersPageSchema, type Member, type MembersPage, type OrganisationLicense } from '@quire/core';
import { checked, checkedGraphqlData } from '../../support/contracts.js';
import { PHONE_PROJECT } from '../../support/env.js';

/** A licence as getOrganisationById lists it, with the server's own `available` (the console works it out). */
export type LicenseWithAvailable = OrganisationLicense & { available: number };

const origin = () => ({ origin: process.env.E2E_BASE_URL ?? '' });

/** The server's own answer, to compare the screen with (same session as the page). */
export async function listTeachers(
  page: Page,
  orgId: string,
  query: { search?: string; page?: number; pageSize?: number; sort?: string; dir?: 'asc' | 'desc'; status?: 'active' | 'inactive' } = {},
): Promise<MembersPage> {
  const { status = 'active', ...rest } = query;
  const params = new URLSearchParams(Object.entries({ page: 1, pageSize: 10, ...rest }).map(([k, v]) => [k, String(v)]));
  const list = status === 'active' ? 'teachers' : 'inactive-teachers';
  const answer = await page.request.get(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/${list}?${params}`);
  expect(answer.ok()).toBeTruthy();
  return checked(membersPageSchema, await answer.json(), `GET …/members/${list}`);
}

export async function findTeacher(page: Page, orgId: string, email: string, status: 'active' | 'inactive' = 'active'): Promise<Member | null> {
  const { members } = await listTeachers(page, orgId, { search: email, status, pageSize: 10 });
  return members.find((m) => m.email === email) ?? null;
}

export async function listLicenses(page: Page, orgId: string): Promise<LicenseWithAvailable[]> {
  const data = await graphql<{ getOrganisationById: { licenses: LicenseWithAvailable[] } }>(
    page,
    'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { licenses { id name allocated quantity available bookQuota libraryQuota applyToAll } } }',
    { id: orgId },
  );
  return data.getOrganisationById.licenses;
}

/**
 * An operation of the organisation service; `T` is a selection of the core types (e.g. `{ getAdmins: Pick<AdminPage,
 * 'total'> }`), and the answer is checked against the fields' contracts in @quire/core.
 */
export async function graphql<T>(page: Page, query: string, variables: Record<string, unknown>): Promise<T> {
  const answer = await page.request.post('/graphql', { headers: origin(), data: { query, variables } });
  const body = (await answer.json()) as { data?: Record<string, unknown>; errors?: Array<{ message: string }> };
  if (!body.data || body.errors?.length) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  checkedGraphqlData(body.data, query.split('(')[0] ?? 'GraphQL');
  return body.data as T;
}

/** Puts teachers back on a licence (or none) after a test changed it. */
export async function restoreLicense(page: Page, orgId: string, memberId: string, licenseId: string | null): Promise<void> {
  if (licenseId) {
    const answer = await page.request.put(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/licenses/${encodeURIComponent(licenseId)}`, {
      headers: origin(),
      data: [memberId],
    });
    expect(answer.ok()).toBeTruthy();
  } else {
    await graphql(page, 'mutation removeLicenses($orgId: ID!, $memberIds: [ID!]!) { removeLicenses(orgId: $orgId, memberIds: $memberIds) { memberIds } }', {
      orgId,
      memberIds: [memberId],
    });
  }
}

/** Imports teachers through the API (for tests that need fresh, disposable teachers). */
export async function importByApi(page: Page, orgId: string, emails: string[]): Promise<Array<{ id: string; email: string }>> {
  const answer = await page.request.post(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/import/teachers`, {
    headers: origin(),
    data: emails,
  });
  expect(answer.ok()).toBeTruthy();
  return checked(importTeachersResultSchema, await answer.json(), 'POST …/members/import/teachers').newMembers;
}

/**
 * An organisation of the demo admin other than the one the fixture opened, without a domain licence: tests
 * that change data use it. The phone project takes the last such organisation and the desktop project the
 * first, so the two projects' runs of one spec never change the same organisation at the same time.
 */
export async function changeableOrganisation(page: Page, all: Array<{ id: string; name: string }>, opened: { id: string }): Promise<{ id: string; name: string }> {
  const others = all.filter((o) => o.id !== opened.id);
  if (test.info().project.name === PHONE_PROJECT) others.reverse();
  for (const candidate of others) {
    const data = await graphql<{ getOrganisationById: { isDomain: boolean } }>(page, 'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { isDomain } }', {
      id: candidate.id,
    });
    if (!data.getOrganisationById.isDomain) return candidate;
  }
  throw new Error('the demo admin has a second organisation without a domain licence');
}

/** Remove teacher through the API (pending teachers may be removed by any admin): they move to Inactive. */
export async function revokeByApi(page: Page, orgId: string, memberIds: string[]): Promise<void> {
  await graphql(page, 'mutation revokeMembership($orgId: ID!, $memberIds: [ID!]!) { revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds } }', {
    orgId,
    memberIds,
  });
}

/** Addresses no other test uses. */
export function uniqueEmails(prefix: string, count: number): string[] {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return Array.from({ length: count }, (_, i) => `e2e-${prefix}-${stamp}-${i}@example.org`);
}
