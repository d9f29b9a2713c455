let actingUserId: string | null = null;

export function setActingUserId(userId: string | null): void {
  actingUserId = userId;
}

export function getActingUserId(): string | null {
  return actingUserId;
}
