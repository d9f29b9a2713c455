import { ORGANISATION_NAME_MAX } from './constants.js';
import { validationMessages } from './messages.js';

/** null when the organisation name is acceptable once trimmed, else the text to show (§5). */
export function validateOrganisationName(value: string | null | undefined): string | null {
  const name = (value ?? '').trim();
  if (!name) return validationMessages.organisationNameEmpty;
  return name.length > ORGANISATION_NAME_MAX ? validationMessages.organisationNameTooLong : null;
}

/**
 * What saving on blur should do (§2): 'save' the trimmed name when it changed, 'restore' the old name
 * when it is empty, or nothing when it is unchanged.
 */
export function organisationNameChange(
  oldName: string,
  edited: string,
): { action: 'save'; name: string } | { action: 'restore'; error: string } | { action: 'none' } {
  const name = edited.trim();
  const error = validateOrganisationName(name);
  if (error) return { action: 'restore', error };
  return name === oldName ? { action: 'none' } : { action: 'save', name };
}
