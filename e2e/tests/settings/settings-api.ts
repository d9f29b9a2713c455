import type { Page } from '@playwright/test';
import {
  effectiveSettingsSchema,
  organisationSettingsSchema,
  type EffectiveSettings,
  type OrganisationSettingsPayload,
  type SettingPoliciesUpdate,
  type SettingsUpdate,
} from '@quire/core';
import { checked } from '../../support/contracts.js';

const origin = () => ({ origin: process.env.E2E_BASE_URL ?? '' });

/** The organisation's settings as the server has them (same session as the page). */
export async function readSettings(page: Page, orgId: string): Promise<OrganisationSettingsPayload> {
  const answer = await page.request.get(`/api/organisations/${encodeURIComponent(orgId)}/settings`);
  if (!answer.ok()) throw new Error(`settings read failed: ${answer.status()}`);
  return checked(organisationSettingsSchema, await answer.json(), 'GET …/settings');
}

export async function changeSettings(page: Page, orgId: string, change: SettingsUpdate): Promise<void> {
  const answer = await page.request.patch(`/api/organisations/${encodeURIComponent(orgId)}/settings`, { headers: origin(), data: change });
  if (!answer.ok()) throw new Error(`settings update failed: ${answer.status()} ${await answer.text()}`);
}

/** Makes the next settings update fail as a server error would, then lets later ones through. */
export async function failNextSettingsUpdate(page: Page): Promise<void> {
  let failed = false;
  await page.route('**/api/organisations/*/settings*', async (route) => {
    if (route.request().method() === 'PATCH' && !failed) {
      failed = true;
      await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal_error', message: 'Something went wrong' }) });
      return;
    }
    await route.fallback();
  });
}

/**
 * An organisation of the demo admin that neither the opened one nor the one other tests change
 * (teachers-api's changeableOrganisation, the second listed): the LTI launch test provisions users there.
 */
export function launchOrganisation(all: Array<{ id: string; name: string }>, opened: { id: string }, changeable: { id: string }): { id: string; name: string } {
  const candidate = [...all].reverse().find((o) => o.id !== opened.id && o.id !== changeable.id);
  if (!candidate) throw new Error('the demo admin needs a third organisation');
  return candidate;
}

/** The settings in force with where each comes from (GET …/settings?include=sources), for the page's session. */
export async function readEffectiveSettings(page: Page, orgId: string): Promise<EffectiveSettings> {
  const answer = await page.request.get(`/api/organisations/${encodeURIComponent(orgId)}/settings?include=sources`);
  if (!answer.ok()) throw new Error(`settings read failed: ${answer.status()}`);
  return checked(effectiveSettingsSchema, await answer.json(), 'GET …/settings?include=sources');
}

/** A district's policies for its schools (PATCH …/setting-policies), for the page's session. */
export async function changePolicies(page: Page, orgId: string, change: SettingPoliciesUpdate): Promise<void> {
  const answer = await page.request.patch(`/api/organisations/${encodeURIComponent(orgId)}/setting-policies`, { headers: origin(), data: change });
  if (!answer.ok()) throw new Error(`setting policies update failed: ${answer.status()} ${await answer.text()}`);
}
