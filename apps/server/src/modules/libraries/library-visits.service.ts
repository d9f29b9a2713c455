import {
  isProviderStaffEmail,
  LIBRARY_ROLE_CO_TEACHER,
  libraryVisitAction,
  validateVisitReason,
  validationMessages,
  VISIT_REASON_OTHER,
  VISIT_REASONS,
  visitReasonText,
  type JoinLibraryResult,
} from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { MailService } from '../../mail/mail.service.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import * as repo from './libraries.repository.js';
import { ensureOrgMember } from './org-membership.service.js';
import { requireTeacherScope } from './teacher-scope.js';

/** The role a visiting admin gets in the library: enough to help with content and members. */
const VISITOR_LIBRARY_ROLE = LIBRARY_ROLE_CO_TEACHER;

/**
 * The identity provider's single-use sign-in token (the one an LTI launch ends with): app.ts passes it in,
 * so this module does not import the identity module. Stored hashed, a few minutes long, used once by
 * `POST /identity/one-time-token/verify`, which signs the holder in as that user.
 */
export type IssueSignInToken = (userId: string, client: { ipAddress: string | null; userAgent: string | null }) => Promise<{ token: string; expiresAt: Date }>;

export interface VisitDeps {
  db: Kysely<DB>;
  mail: Pick<MailService, 'send'>;
  productName: string;
  /** Provider staff are recognised by this e-mail domain: their visits do not make them teachers. */
  providerEmailDomain: string;
  /** The product's web app (env APP_URL): the visit link opens the library there. */
  appUrl: string;
  issueSignInToken: IssueSignInToken;
  /** Who asked, for the sign-in session the token names. */
  client: { ipAddress: string | null; userAgent: string | null };
  /** Logs a failure that must not undo a committed visit (the owner's e-mail). */
  logError: (error: unknown, line: string) => void;
}

export interface JoinLibraryInput {
  organisationId: string;
  teacherId: string;
  libraryId: string;
  reason?: string;
  otherReason?: string;
}

/** `{APP_URL}/library/{libraryId}?token=…&organisationId=…`: the same landing contract as an LTI launch's `/lti`. */
function visitUrl(appUrl: string, input: { libraryId: string; organisationId: string; token: string }): string {
  const url = new URL(`library/${encodeURIComponent(input.libraryId)}`, `${appUrl.replace(/\/$/, '')}/`);
  url.searchParams.set('token', input.token);
  url.searchParams.set('organisationId', input.organisationId);
  return url.toString();
}

/** The reason text to record, or a 400 with the §5 texts; undefined when none was given. */
function parseVisitReason(reason: string | undefined, otherReason: string | undefined): string | undefined {
  const choice = reason?.trim() ?? '';
  if (!choice && !otherReason?.trim()) return undefined;
  const isListed = choice === VISIT_REASON_OTHER || (VISIT_REASONS as readonly string[]).includes(choice);
  // Free text sent on its own is the 'Other' text.
  const [c, other] = isListed ? [choice, otherReason ?? ''] : [VISIT_REASON_OTHER, choice || (otherReason ?? '')];
  const problem = validateVisitReason(c, other);
  if (problem) {
    throw appError(problem === validationMessages.visitReasonTooLong ? 'visit_reason_too_long' : 'visit_reason_required', { message: problem });
  }
  return visitReasonText(c, other);
}

/**
 * POST {api}/{teacherId}/admins/{libraryId}/join: checks the visit is allowed, makes the admin a member of the
 * organisation and the library, records the visit, e-mails the owner, and answers the sign-in-with-token link
 * (spec §4): the token signs the admin in to the product once, within a few minutes.
 */
export async function joinLibrary(deps: VisitDeps, actor: Actor, input: JoinLibraryInput): Promise<JoinLibraryResult> {
  const { db } = deps;
  const { access, teacher } = await requireTeacherScope(db, actor, input, 'read');
  const org = access.organisation;
  if (!org.visit_libraries || access.level !== 'admin') throw appError('visit_not_allowed');

  const viewerMemberIds = await repo.findMemberIdsOfPerson(db, input.organisationId, actor);
  const [library] = await repo.listTeacherLibraries(db, {
    organisationId: input.organisationId, memberId: teacher.id, viewerMemberIds, libraryId: input.libraryId, includeOwnPrivate: true,
  });
  if (!library) throw appError('library_not_found');
  if (libraryVisitAction({ role: Number(library.role), isPrivate: library.is_private }) !== 'visit') {
    throw appError('visit_forbidden');
  }
  const reason = parseVisitReason(input.reason, input.otherReason);
  if (!reason && !library.joined) throw appError('visit_reason_required');

  await db.transaction().execute(async (trx) => {
    const ensured = await ensureOrgMember(trx, input.organisationId, {
      email: actor.email, userId: actor.userId, displayName: actor.displayName, providerStaff: isProviderStaffEmail(actor.email, deps.providerEmailDomain),
    });
    const added = await repo.addMembershipIfMissing(trx, input.organisationId, library.id, ensured.member.id, VISITOR_LIBRARY_ROLE);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId,
      action: 'libraries.visit',
      targetType: 'library',
      targetIds: [library.id],
      reason,
      details: {
        teacherId: teacher.id, visitorMemberId: ensured.member.id, joinedLibrary: added, memberCreated: ensured.created,
        memberRestored: ensured.restored, grantedLicenseId: ensured.grantedLicenseId,
      },
    });
  });

  // After the commit: the identity provider writes on its own connection (one at a time on PGlite).
  const { token, expiresAt } = await deps.issueSignInToken(actor.userId, deps.client);
  if (reason) await notifyOwner(deps, actor, { organisationId: input.organisationId, organisationName: org.name, library, reason });
  return { token, expiresAt: expiresAt.toISOString(), url: visitUrl(deps.appUrl, { libraryId: library.id, organisationId: input.organisationId, token }) };
}

/** The library owner hears who visited and why (spec §6). A mail failure never undoes the visit. */
async function notifyOwner(
  deps: VisitDeps,
  actor: Actor,
  visit: { organisationId: string; organisationName: string; library: repo.TeacherLibraryRow; reason: string },
): Promise<void> {
  try {
    const owner = await repo.findMember(deps.db, visit.organisationId, visit.library.owner_member_id);
    if (!owner || owner.email === actor.email.toLowerCase()) return;
    const admin = actor.displayName || actor.email;
    await deps.mail.send({
      to: owner.email,
      organisationId: visit.organisationId,
      subject: `${admin} visited your library "${visit.library.name}"`,
      text: [
        `Hello ${owner.display_name || owner.email},`,
        '',
        `${admin} (${actor.email}), an admin of ${visit.organisationName}, has joined your ${deps.productName} library "${visit.library.name}".`,
        '',
        `Reason for the visit: ${visit.reason}`,
        '',
        `If you have any questions, contact ${actor.email}.`,
      ].join('\n'),
    });
  } catch (error) {
    deps.logError(error, 'library visit: the owner could not be e-mailed');
  }
}
