import { BC_ORG } from '@quire/core';

/** localStorage key of the organisation chosen last (spec §9). */
const REMEMBERED_ORGANISATION_KEY = BC_ORG;

export function getRememberedOrganisation(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_ORGANISATION_KEY);
  } catch {
    return null; // storage can be blocked (private mode, policies): nothing remembered
  }
}

export function rememberOrganisation(id: string | null): void {
  try {
    if (id) localStorage.setItem(REMEMBERED_ORGANISATION_KEY, id);
    else localStorage.removeItem(REMEMBERED_ORGANISATION_KEY);
  } catch {
    // not remembering is harmless: the picker simply preselects nothing
  }
}
