import { UNLIMITED } from '@quire/core';
import type { Member, MemberLicense } from '@quire/core';

/** The License column: the licence's book and library quota. */
export function licenseQuotaText(license: MemberLicense): string {
  const libraries = license.libraryQuota === UNLIMITED ? 'unlimited libraries' : `${license.libraryQuota} ${license.libraryQuota === 1 ? 'library' : 'libraries'}`;
  return `${license.bookQuota} books · ${libraries}`;
}

/** The Certification column, as in the CSV: Complete (a CA level badge), In progress, or nothing. */
export function certificationText(member: Pick<Member, 'badges' | 'certifying'>): string {
  if (member.badges.calevel1 || member.badges.calevel2) return 'Complete';
  if ((member.certifying ?? 0) > 0) return 'In progress';
  return '';
}

/** The notice after an import: how many were added, and how many were already members. */
export function importedText(result: { newMembers: unknown[]; existingMembers: unknown[] }): string {
  const added = result.newMembers.length;
  const text = added === 1 ? '1 teacher imported' : `${added} teachers imported`;
  const existing = result.existingMembers.length;
  if (existing === 0) return text;
  return `${text}; ${existing} ${existing === 1 ? 'was' : 'were'} already in your organisation`;
}
