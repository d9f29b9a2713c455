import { libraryMessages, withServerMessages } from '@quire/core';
import { GraphqlError, hasErrorCode, isApiError } from '../../../lib/api/index.js';

/**
 * The server answers "no access to this teacher" with 403 `not_authorised_user`; the spec's catalogue
 * speaks of a 401. Both get the catalogue's 401 text.
 */
function isNotAuthorised(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || (error.status === 403 && hasErrorCode(error, 'not_authorised_user')));
}

/** A refusal whose reason the admin can act on (a bad target, a removed teacher): its text is worth showing. */
function actionableMessage(error: unknown): string | null {
  if (!isApiError(error)) return null;
  return [400, 404, 409].includes(error.status) ? error.message : null;
}

/** 'Error fetching teacher libraries'; 401: 'Not authorised to access the requested user' (spec §8). */
export function fetchLibrariesErrorText(error: unknown): string {
  return isNotAuthorised(error) ? libraryMessages.notAuthorisedRequestedUser : libraryMessages.fetchFailed;
}

/** 'Error fetching teacher book count'; 401: 'Not authorised to access the requested user'. */
export function bookCountErrorText(error: unknown): string {
  return isNotAuthorised(error) ? libraryMessages.notAuthorisedRequestedUser : libraryMessages.bookCountFailed;
}

/** 'Error reassigning teacher libraries'; 401: 'Not authorised to access the user'; a reason is appended. */
export function reassignErrorText(error: unknown): string {
  if (isNotAuthorised(error)) return libraryMessages.notAuthorisedUser;
  return withServerMessages(libraryMessages.reassignFailed, [actionableMessage(error)]);
}

/** 'Error archiving teacher libraries'; 401: 'Not authorised to access the requested user'. */
export function archiveErrorText(error: unknown): string {
  if (isNotAuthorised(error)) return libraryMessages.notAuthorisedRequestedUser;
  return withServerMessages(libraryMessages.archiveFailed, [actionableMessage(error)]);
}

/**
 * 'Error joining teacher libraries'; 403: "You don't have permissions to visit this library." The
 * organisation-wide refusal (no visitLibraries, not in the admins list) keeps its own §6 text.
 */
export function joinErrorText(error: unknown): string {
  if (isApiError(error) && hasErrorCode(error, 'visit_not_allowed')) return libraryMessages.visitNotAllowed;
  if (isApiError(error) && error.status === 403) return libraryMessages.joinForbidden;
  return withServerMessages(libraryMessages.joinFailed, [isApiError(error) && error.status === 400 ? error.message : null]);
}

/** 'Error revoking teacher memberships', with the server's message when there is one. */
export function revokeErrorText(error: unknown): string {
  const message = error instanceof GraphqlError && error.errors.length > 0 ? error.message : null;
  return withServerMessages(libraryMessages.revokeMembershipsFailed, [message]);
}
