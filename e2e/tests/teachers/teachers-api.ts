import { expect, test, type Page } from '@playwright/test';
import { PHONE_PROJECT } from '../../support/env.js';

/** A teacher as the members list returns it (docs/teachers-api.md). */
export interface ApiMember {
  id: string;
  userId: string | null;
  email: string;
  displayName: string;
  role: number;
  pending: boolean;
  license: { id: string; name: string; bookQuota: number; applyToAll: boolean } | null;
  revokedAt: string | null;
}

export interface ApiLicense {
  id: string;
  name: string;
  allocated: number;
  quantity: number;
  available: number;
  bookQuota: number;
  applyToAll: boolean;
}

const origin = () => ({ origin: process.env.E2E_BASE_URL ?? '' });

/** The server's own answer, to compare the screen with (same session as the page). */
export async function listTeachers(
  page: Page,
  orgId: string,
  query: { search?: string; page?: number; pageSize?: number; sort?: string; dir?: 'asc' | 'desc'; status?: 'active' | 'inactive' } = {},
): Promise<{ members: ApiMember[]; total: number }> {
  const { status = 'active', ...rest } = query;
  const params = new URLSearchParams(Object.entries({ page: 1, pageSize: 10, ...rest }).map(([k, v]) => [k, String(v)]));
  const list = status === 'active' ? 'teachers' : 'inactive-teachers';
  const answer = await page.request.get(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/${list}?${params}`);
  expect(answer.ok()).toBeTruthy();
  return (await answer.json()) as { members: ApiMember[]; total: number };
}

export async function findTeacher(page: Page, orgId: string, email: string, status: 'active' | 'inactive' = 'active'): Promise<ApiMember | null> {
  const { members } = await listTeachers(page, orgId, { search: email, status, pageSize: 10 });
  return members.find((m) => m.email === email) ?? null;
}

export async function listLicenses(page: Page, orgId: string): Promise<ApiLicense[]> {
  const data = await graphql<{ getOrganisationById: { licenses: ApiLicense[] } }>(
    page,
    'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { licenses { id name allocated quantity available bookQuota applyToAll } } }',
    { id: orgId },
  );
  return data.getOrganisationById.licenses;
}

export async function graphql<T>(page: Page, query: string, variables: Record<string, unknown>): Promise<T> {
  const answer = await page.request.post('/graphql', { headers: origin(), data: { query, variables } });
  const body = (await answer.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (!body.data || body.errors?.length) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
  return body.data;
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
  return ((await answer.json()) as { newMembers: Array<{ id: string; email: string }> }).newMembers;
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
