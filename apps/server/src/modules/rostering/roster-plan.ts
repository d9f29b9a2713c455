import type { RosterError } from '@quire/core';
import { roleKind } from './oneroster-format.js';
import type { RosterPerson } from './oneroster-read.js';

/**
 * What an import would change, worked out from the file's people and the organisation as it is now: who is added,
 * who is updated (and what changes), who is retired, who is left as they are, and the rows that cannot be applied.
 * Pure: the preview shows it, and the apply job works it out again when it starts (the organisation may have changed
 * since), so running the same import twice finds nothing left to do the second time.
 */

export interface RosterOptions {
  aides: 'skip' | 'teacher';
  consoleAdmins: boolean;
  licence: 'none' | 'named' | 'bySchool';
  licenceName: string;
  allOrNothing: boolean;
}

/** A person of the file as staged (roster_import_people, in file order): as read; the role's kind is worked out again. */
export type StagedPerson = Omit<RosterPerson, 'kind'>;

/** A member an earlier import made or took over (roster_members with the member's row). */
export interface ManagedMember {
  sourcedId: string;
  memberId: string;
  organisationId: string;
  email: string;
  displayName: string;
  role: string;
  revoked: boolean;
  consoleAdmin: boolean;
}

/** A member of one of the organisations with an address of the file. */
export interface ExistingMember {
  id: string;
  organisationId: string;
  email: string;
  revoked: boolean;
  /** Why an import may not take them over (a student, provider staff, managed by SCIM or by another sourcedId), or null. */
  blocked: string | null;
}

export type PlanEntry =
  | { kind: 'add'; person: StagedPerson; organisationId: string; existing: ExistingMember | null; changes: string[] }
  /** `existing`: on a move to another organisation, the member there with the address, taken over. */
  | { kind: 'update'; person: StagedPerson; organisationId: string; managed: ManagedMember; changes: string[]; existing?: ExistingMember | null }
  | { kind: 'retire'; managed: ManagedMember; person: StagedPerson | null };

export interface Plan {
  entries: PlanEntry[];
  unchanged: number;
  /** Aides left out by the aide rule. */
  skippedAides: number;
  errors: RosterError[];
}

export interface PlanInput {
  mode: 'bulk' | 'delta';
  options: RosterOptions;
  people: readonly StagedPerson[];
  /** OneRoster org sourcedId → organisation id. */
  links: ReadonlyMap<string, string>;
  managed: ReadonlyMap<string, ManagedMember>;
  /** By `${organisationId} ${email}`. */
  existing: ReadonlyMap<string, ExistingMember>;
}

export const displayName = (person: Pick<StagedPerson, 'givenName' | 'familyName'>) => `${person.givenName} ${person.familyName}`.trim();
export const existingKey = (organisationId: string, email: string) => `${organisationId} ${email}`;
/** The role's kind; a person without a role (a delta's deletion) counts as a teacher. */
const kindOf = (role: string) => (role === '' ? 'teacher' : roleKind(role));
/** Whether the import makes the person a console admin of their organisation. */
export const wantsConsoleAdmin = (options: RosterOptions, role: string) => options.consoleAdmins && kindOf(role) === 'administrator';

export function planRoster(input: PlanInput): Plan {
  const { options } = input;
  const entries: PlanEntry[] = [];
  const retires: PlanEntry[] = [];
  const errors: RosterError[] = [];
  let unchanged = 0;
  let skippedAides = 0;
  const inFile = new Set<string>();
  const error = (person: StagedPerson, column: string, reason: string) => errors.push({ file: 'users.csv', line: person.line, column, reason });

  for (const person of input.people) {
    inFile.add(person.sourcedId);
    if (person.hasError) continue;
    const managed = input.managed.get(person.sourcedId);
    const skipped = kindOf(person.role) === 'aide' && options.aides === 'skip';
    if (skipped) skippedAides += 1;
    if (!person.active || skipped) {
      if (managed && !managed.revoked) retires.push({ kind: 'retire', managed, person });
      else if (!skipped) unchanged += 1;
      continue;
    }
    const organisationId = person.orgSourcedIds.map((id) => input.links.get(id)).find((id) => id !== undefined);
    if (!organisationId) {
      error(person, 'orgSourcedIds', `unknown org ${person.orgSourcedIds.join(', ')}: not matched to an organisation on the Rostering page`);
      continue;
    }
    const holder = input.existing.get(existingKey(organisationId, person.email));
    if (managed && managed.organisationId === organisationId) {
      if (holder && holder.id !== managed.memberId) {
        error(person, 'email', `the e-mail ${person.email} already belongs to another member of the organisation`);
        continue;
      }
      const changes: string[] = [];
      if (managed.email !== person.email) changes.push('email');
      if (managed.displayName !== displayName(person)) changes.push('name');
      if (managed.role !== person.role) changes.push('role');
      if (managed.revoked) changes.push('restored');
      if (wantsConsoleAdmin(options, person.role) !== managed.consoleAdmin) changes.push('console admin');
      if (changes.length) entries.push({ kind: 'update', person, organisationId, managed, changes });
      else unchanged += 1;
      continue;
    }
    // New to the organisation: a new member, a member added by hand taken over, or a move from another school.
    if (holder?.blocked) {
      error(person, 'email', `the e-mail ${person.email} belongs to ${holder.blocked}`);
      continue;
    }
    if (managed) {
      entries.push({ kind: 'update', person, organisationId, managed, changes: ['organisation'], existing: holder ?? null });
      continue;
    }
    const changes = holder ? ['linked', ...(holder.revoked ? ['restored'] : [])] : [];
    entries.push({ kind: 'add', person, organisationId, existing: holder ?? null, changes });
  }
  if (input.mode === 'bulk') {
    for (const managed of input.managed.values()) {
      if (!inFile.has(managed.sourcedId) && !managed.revoked) retires.push({ kind: 'retire', managed, person: null });
    }
  }
  return { entries: [...entries, ...retires], unchanged, skippedAides, errors };
}
