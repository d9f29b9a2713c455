import {
  LIBRARY_ROLE_CO_TEACHER,
  LIBRARY_ROLE_OWNER,
  LIBRARY_ROLE_READ_ONLY,
  LIBRARY_ROLE_STUDENT,
  LIBRARY_ROLE_TEACHER,
  ROLE_LIBRARY_MANAGER,
  ROLE_PENDING_TEACHER,
  ROLE_TEACHER,
} from '@quire/core';
import { newBooks, newLibraries, newLibraryMemberships, newMembers, newUsers } from './columns.js';
import { FIRST_NAMES, LAST_NAMES, LIBRARY_KINDS, SUBJECTS, TITLE_OPENINGS, TITLE_TOPICS } from './names.js';
import type { FixedMemberPlan, OrganisationPlan } from './plan.js';
import type { Random } from './random.js';

const DAY = 86_400_000;

/** One batch of teachers with everything that hangs off them, in insertion order. */
export interface TeacherChunk {
  users: ReturnType<typeof newUsers>;
  members: ReturnType<typeof newMembers>;
  libraries: ReturnType<typeof newLibraries>;
  memberships: ReturnType<typeof newLibraryMemberships>;
  books: ReturnType<typeof newBooks>;
}

export interface SignedUpTeacher {
  memberId: string;
  userId: string;
  email: string;
}

type Status = 'active' | 'pending' | 'inactive';
interface Profile {
  status: Status;
  manager: boolean;
  ambassador: boolean;
  certified: 0 | 1 | 2;
  certifying: number | null;
  student: boolean;
}

/** The first generated teachers of every organisation cover each case, so even a small one shows them all. */
const GUARANTEED: Partial<Profile>[] = [
  { manager: true, ambassador: true },
  { certified: 2 },
  { certified: 1, certifying: 1 },
  { certifying: 0.5 },
  { status: 'pending' },
  { status: 'inactive' },
  { student: true },
  { certifying: 0 },
  { status: 'pending' },
  { status: 'inactive' },
];

/**
 * Generates an organisation's teachers chunk by chunk (bounded memory for 100k teachers), drawing
 * every choice from one seeded source, so the same seed yields the same rows and ids.
 */
export class TeacherGenerator {
  private readonly usedEmails = new Map<string, number>();
  private generated = 0;
  private sequence = 0;
  /** Signed-up teachers kept for analytics, admins and exports (the first few hundred). */
  readonly signedUp: SignedUpTeacher[] = [];

  constructor(
    private readonly rand: Random,
    private readonly organisationId: string,
    private readonly plan: OrganisationPlan,
    /** Licence ids in plan order. */
    private readonly licenseIds: string[],
    private readonly reference: number,
  ) {}

  /** The next `count` generated teachers, preceded by the given fixed members. */
  chunk(count: number, fixed: FixedMemberPlan[] = []): TeacherChunk {
    const out: TeacherChunk = {
      users: newUsers(), members: newMembers(), libraries: newLibraries(), memberships: newLibraryMemberships(), books: newBooks(),
    };
    // Libraries of this chunk that other teachers of the chunk may join.
    const openLibraries: { id: string; owner: string; created: number }[] = [];
    const joiners: { memberId: string; since: number }[] = [];

    const add = (person: { first?: string; last?: string; email?: string; name?: string; userId?: string; role?: number; license?: number }, profile: Profile) => {
      const name = person.name ?? `${person.first} ${person.last}`;
      const email = person.email ?? this.email(person.first ?? '', person.last ?? '');
      const memberId = this.nextId();
      const signedUp = profile.status !== 'pending';
      const signUpAt = this.reference - this.rand.int(20, 1100) * DAY - this.rand.int(0, DAY);
      const createdAt = signedUp ? signUpAt - this.rand.int(1, 30) * DAY : this.reference - this.rand.int(1, 200) * DAY;
      const revokedAt = profile.status === 'inactive' ? Math.min(this.reference - DAY, Math.max(signUpAt + DAY, this.reference - this.rand.int(1, 540) * DAY)) : null;
      let userId: string | null = null;
      if (signedUp) {
        userId = person.userId ?? this.nextId(28);
        if (!person.userId) out.users.push({ id: userId, name, email, emailVerified: true, createdAt: iso(signUpAt), updatedAt: iso(signUpAt) });
        if (this.signedUp.length < 500 && profile.status === 'active') this.signedUp.push({ memberId, userId, email });
      }
      const calevel1 = profile.certified >= 1 ? signUpAt + this.rand.int(5, 400) * DAY : null;
      const calevel2 = profile.certified === 2 && calevel1 !== null ? calevel1 + this.rand.int(10, 200) * DAY : null;
      out.members.push({
        id: memberId,
        organisation_id: this.organisationId,
        user_id: userId,
        email,
        display_name: signedUp ? name : '',
        role: person.role ?? (profile.status === 'pending' ? ROLE_PENDING_TEACHER : profile.manager ? ROLE_LIBRARY_MANAGER : ROLE_TEACHER),
        license_id: this.licenseFor(profile, person.license),
        pending: !signedUp,
        calevel1_at: calevel1 === null ? null : iso(Math.min(calevel1, this.reference - DAY)),
        calevel2_at: calevel2 === null ? null : iso(Math.min(calevel2, this.reference - DAY)),
        certifying: profile.certifying,
        is_ambassador: profile.ambassador,
        is_student: profile.student,
        revoked_at: revokedAt === null ? null : iso(revokedAt),
        signed_up_at: signedUp ? iso(signUpAt) : null,
        created_at: iso(createdAt),
        updated_at: iso(revokedAt ?? (signedUp ? signUpAt : createdAt)),
      });
      if (signedUp) this.libraries(out, memberId, signUpAt, profile, revokedAt, openLibraries, joiners);
    };

    for (const person of fixed) {
      add(person, { status: 'active', manager: person.role === ROLE_LIBRARY_MANAGER, ambassador: false, certified: 0, certifying: null, student: false });
    }
    for (let i = 0; i < count; i++) {
      add({ first: this.rand.pick(FIRST_NAMES), last: this.rand.pick(LAST_NAMES) }, this.profile(this.generated++));
    }
    this.join(out, openLibraries, joiners);
    return out;
  }

  private nextId(length = 20): string {
    return this.rand.sequentialId(this.sequence++, length);
  }

  private profile(index: number): Profile {
    const r = this.rand;
    const base: Profile = {
      status: r.weighted<Status>([['active', 85], ['pending', 8], ['inactive', 7]]),
      manager: false, ambassador: r.chance(0.03), certified: 0, certifying: null, student: false,
    };
    if (base.status !== 'pending') {
      base.certified = r.weighted<0 | 1 | 2>([[0, 86], [1, 8], [2, 6]]);
      if (base.certified < 2 && r.chance(0.12)) base.certifying = Math.round(r.next() * 100) / 100;
      base.manager = base.status === 'active' && r.chance(0.06);
      base.student = base.status === 'active' && !base.manager && r.chance(0.03);
    }
    const guaranteed = GUARANTEED[index];
    const profile: Profile = guaranteed ? { ...base, status: 'active', manager: false, student: false, ...guaranteed } : base;
    if (profile.status === 'pending') Object.assign(profile, { manager: false, certified: 0, certifying: null, student: false, ambassador: false });
    if (!this.plan.orgLibraries) profile.manager = false;
    return profile;
  }

  private licenseFor(profile: Profile, fixedLicense: number | undefined): string | null {
    const ids = this.licenseIds;
    if (fixedLicense !== undefined) return ids[fixedLicense] ?? null;
    if (profile.status === 'inactive' || profile.student || ids.length === 0) return null;
    const applyToAll = this.plan.licenses.findIndex((l) => l.applyToAll);
    if (applyToAll >= 0) return ids[applyToAll] ?? null;
    let roll = this.rand.next();
    for (const [i, license] of this.plan.licenses.entries()) {
      roll -= license.share;
      if (roll < 0) return ids[i] ?? null;
    }
    return null;
  }

  private email(first: string, last: string): string {
    const base = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '');
    const seen = (this.usedEmails.get(base) ?? 0) + 1;
    this.usedEmails.set(base, seen);
    return `${base}${seen > 1 ? seen : ''}@${this.plan.domain}`;
  }

  private libraries(
    out: TeacherChunk, memberId: string, signUpAt: number, profile: Profile, revokedAt: number | null,
    openLibraries: { id: string; owner: string; created: number }[], joiners: { memberId: string; since: number }[],
  ): void {
    const r = this.rand;
    const until = revokedAt ?? this.reference;
    // An inactive teacher's libraries were often archived when the account was closed.
    const closed = revokedAt !== null && r.chance(0.5);
    const owned = profile.student ? 0 : r.weighted([[0, 15], [1, 35], [2, 30], [3, 15], [4, 3], [6, 2]]);
    for (let n = 0; n <= owned; n++) {
      const isPrivate = n === 0;
      const id = this.nextId();
      const created = isPrivate ? signUpAt : r.int(signUpAt, until);
      const archived = closed ? revokedAt : !isPrivate && r.chance(0.12) ? r.int(created, until) : null;
      out.libraries.push({
        id, organisation_id: this.organisationId, owner_member_id: memberId,
        name: isPrivate ? 'My Books' : `${r.pick(SUBJECTS)} ${r.pick(LIBRARY_KINDS)}`,
        is_private: isPrivate, archived_at: archived === null ? null : iso(archived), created_at: iso(created),
      });
      out.memberships.push({ organisation_id: this.organisationId, library_id: id, member_id: memberId, role: LIBRARY_ROLE_OWNER, joined_at: iso(created) });
      this.books(out, id, memberId, created, until);
      if (!isPrivate && archived === null) openLibraries.push({ id, owner: memberId, created });
    }
    if (profile.status === 'active' && !profile.student) joiners.push({ memberId, since: signUpAt });
  }

  private join(out: TeacherChunk, openLibraries: { id: string; owner: string; created: number }[], joiners: { memberId: string; since: number }[]): void {
    const r = this.rand;
    if (openLibraries.length < 2) return;
    for (const joiner of joiners) {
      const wanted = r.weighted([[0, 40], [1, 30], [2, 20], [3, 10]]);
      const chosen = new Set<string>();
      for (let attempt = 0; attempt < wanted * 3 && chosen.size < wanted; attempt++) {
        const library = r.pick(openLibraries);
        if (library.owner === joiner.memberId || chosen.has(library.id)) continue;
        chosen.add(library.id);
        const role = r.weighted([[LIBRARY_ROLE_CO_TEACHER, 40], [LIBRARY_ROLE_TEACHER, 35], [LIBRARY_ROLE_STUDENT, 10], [LIBRARY_ROLE_READ_ONLY, 15]]);
        const joined = r.int(Math.max(library.created, joiner.since), this.reference);
        out.memberships.push({ organisation_id: this.organisationId, library_id: library.id, member_id: joiner.memberId, role, joined_at: iso(joined) });
        // Co-teachers write some of the books.
        if (role === LIBRARY_ROLE_CO_TEACHER && r.chance(0.3)) this.books(out, library.id, joiner.memberId, joined, this.reference, 2);
      }
    }
  }

  private books(out: TeacherChunk, libraryId: string, authorId: string, from: number, until: number, max = 12): void {
    const r = this.rand;
    const count = Math.min(max, r.weighted([[0, 15], [1, 15], [2, 20], [3, 18], [4, 12], [5, 8], [6, 6], [8, 4], [12, 2]]));
    for (let b = 0; b < count; b++) {
      out.books.push({
        id: this.nextId(), organisation_id: this.organisationId, library_id: libraryId, author_member_id: authorId,
        title: `${r.pick(TITLE_OPENINGS)} ${r.pick(TITLE_TOPICS)}`,
        shape: r.weighted([['portrait', 50], ['landscape', 30], ['square', 20]]),
        published: r.chance(0.3), created_at: iso(r.int(from, Math.max(from, until))),
      });
    }
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
