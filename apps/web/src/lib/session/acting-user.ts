/**
 * The signed-in user's id, sent with every console request in the `X-Acting-User` header (spec §6).
 * The session store sets it on sign-in and clears it on sign-out; the API client reads it.
 */
export const ACTING_USER_HEADER = 'X-Acting-User';

let actingUserId: string | null = null;

export function setActingUserId(userId: string | null): void {
  actingUserId = userId;
}

export function getActingUserId(): string | null {
  return actingUserId;
}
