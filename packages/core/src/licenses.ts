/**
 * Licence maths of spec §3 and the assign rule of §5.
 * On the wire libraryQuota is a number or the string UNLIMITED (the database stores NULL for it).
 */
export const UNLIMITED = 'UNLIMITED' as const;
type Unlimited = typeof UNLIMITED;
export type LibraryQuota = number | Unlimited;

/** A licence with this book quota is the unlimited-books licence (certification e-mail template). */
const UNLIMITED_BOOKS_QUOTA = 1000;

/** What the total-books indicator shows when there is no total. */
export const NO_TOTAL_BOOKS = 'None' as const;

export interface LicenseQuantities {
  quantity: number;
  allocated: number;
}

export interface LicenseQuotas {
  bookQuota: number;
  libraryQuota: LibraryQuota | null | undefined;
}

/** Unassigned licences: quantity minus allocated (negative when over-allocated). */
export function available(license: LicenseQuantities): number {
  return license.quantity - license.allocated;
}

/**
 * Books a licence holder may have: bookQuota x libraryQuota, or bookQuota when libraryQuota is UNLIMITED.
 * 'None' otherwise: a missing, zero or non-numeric quota, i.e. whenever the product is not a positive number.
 */
export function totalBooks(license: LicenseQuotas): number | typeof NO_TOTAL_BOOKS {
  const { bookQuota, libraryQuota } = license;
  const total = libraryQuota === UNLIMITED ? bookQuota : typeof libraryQuota === 'number' ? bookQuota * libraryQuota : NaN;
  return Number.isFinite(total) && total > 0 ? total : NO_TOTAL_BOOKS;
}

export function isUnlimitedBooksLicense(license: Pick<LicenseQuotas, 'bookQuota'>): boolean {
  return license.bookQuota === UNLIMITED_BOOKS_QUOTA;
}

/** The libraryQuota of the wire from the database column (NULL means UNLIMITED). */
export function libraryQuotaFromColumn(value: number | null): LibraryQuota {
  return value === null ? UNLIMITED : value;
}

export interface AssignCheck {
  /** `allocatedBy`: the district, when the licence is the school's share of a district licence. */
  license: LicenseQuantities & Pick<LicenseQuotas, 'bookQuota'> & { allocatedBy?: { organisationName: string } | null };
  /** Members the admin selected for the licence. */
  selectedMemberIds: Iterable<string>;
  /** Members who already hold this licence: assigning it to them again uses nothing. */
  membersAlreadyOnLicense: Iterable<string>;
}

/** How many licences an assignment would use: selected members not already on the licence, each once. */
export function licensesNeeded(check: Omit<AssignCheck, 'license'>): number {
  const already = new Set(check.membersAlreadyOnLicense);
  const needed = new Set<string>();
  for (const id of check.selectedMemberIds) if (!already.has(id)) needed.add(id);
  return needed.size;
}

/** The §5 refusal text, with n the licence's book quota and k the licences still available. @internal */
export function notEnoughLicensesMessage(bookQuota: number, availableCount: number): string {
  return `Not enough ${bookQuota} book licenses available. You have ${availableCount} available, please purchase more licenses or select fewer teachers to assign.`;
}

/**
 * The §5 refusal for a school's share of a district licence: more seats come from the district, not from a
 * purchase, so the text says who to ask.
 */
/** @internal */
export function notEnoughAllocatedLicensesMessage(bookQuota: number, availableCount: number, districtName: string): string {
  return `Not enough ${bookQuota} book licenses allocated by ${districtName}. You have ${availableCount} available, please ask ${districtName} to allocate more or select fewer teachers to assign.`;
}

/**
 * null when the licence can go to the selected members; otherwise the §5 message (its allocation form for a
 * district's share). Blocked when unassigned licences would fall below zero. An over-allocated licence reports 0
 * available, not a negative.
 */
export function checkAssignable(check: AssignCheck): string | null {
  const left = available(check.license);
  if (left - licensesNeeded(check) >= 0) return null;
  const { bookQuota, allocatedBy } = check.license;
  return allocatedBy ? notEnoughAllocatedLicensesMessage(bookQuota, Math.max(0, left), allocatedBy.organisationName) : notEnoughLicensesMessage(bookQuota, Math.max(0, left));
}

/** The school's share line of a district licence: "40 of 50 allocated by Riverside Unified School District used". */
export function allocationShareText(share: { assigned: number; seats: number; districtName: string }): string {
  return `${share.assigned} of ${share.seats} allocated by ${share.districtName} used`;
}
