import { INPUT_LIMITS, isProviderStaffEmail, isUnlimitedBooksLicense, teacherMessages, validateWelcomeEmail, type SendEmailResult, type TeacherEmailPreview } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { MailService } from '../../mail/mail.service.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './teacher-mail.repository.js';
import { composeTeacherEmail, defaultMessage, defaultSubject, defaultWelcomeDate, signInUrl, signUpUrl, type TeacherEmailKind } from './teacher-mail.templates.js';

const teacherMailErrors = {
  inactiveNotEmailed: "Some users selected are no longer active and weren't emailed",
  domainWelcome: 'Only provider staff can send the welcome email in a domain organisation',
  pastDate: 'The date to create an account by cannot be in the past',
} as const;

export interface SendTeacherEmailInput {
  organisationId: string;
  kind: TeacherEmailKind;
  subject: string;
  /** The admin's message: the spec's email.body.plain. */
  message: string;
  memberIds: string[];
  /** Welcome only: the date to sign up by (YYYY-MM-DD); default 14 days from now. */
  date?: string;
}

export interface TeacherMailSettings {
  productName: string;
  publicUrl: string;
  providerEmailDomain: string;
}

interface Plan {
  organisationName: string;
  recipients: Array<{ id: string; email: string; pending: boolean }>;
  everyoneUnlimited: boolean;
  date: Date;
  errors: string[];
}

/** Authorises, then sorts the selection into recipients and skipped members. */
async function plan(db: Kysely<DB>, actor: Actor, settings: TeacherMailSettings, input: Omit<SendTeacherEmailInput, 'subject' | 'message'>): Promise<Plan> {
  const { organisation: org } = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  if (input.kind === 'welcome' && org.is_domain && !isProviderStaffEmail(actor.email, settings.providerEmailDomain)) {
    throw appError('domain_organisation', { message: teacherMailErrors.domainWelcome });
  }
  const ids = [...new Set(input.memberIds)];
  const members = await repo.findRecipients(db, input.organisationId, ids);
  if (members.length !== ids.length) throw appError('teacher_not_found');
  const errors: string[] = [];
  if (members.some((m) => m.is_student)) errors.push(teacherMessages.studentAccountsNotEmailed);
  if (members.some((m) => !m.is_student && m.revoked_at)) errors.push(teacherMailErrors.inactiveNotEmailed);
  const recipients = members.filter((m) => !m.is_student && !m.revoked_at);
  let date = defaultWelcomeDate();
  if (input.date) {
    date = new Date(`${input.date}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date) || Number.isNaN(date.getTime())) throw appError('invalid_date');
    // A deadline already gone can only mislead: today at the earliest (a day of slack for time zones).
    if (date.getTime() < Date.now() - 36 * 3600_000) throw appError('invalid_date', { message: teacherMailErrors.pastDate });
  }
  return {
    organisationName: org.name,
    recipients: recipients.map((m) => ({ id: m.id, email: m.email, pending: m.pending })),
    everyoneUnlimited: recipients.length > 0 && recipients.every((m) => m.book_quota !== null && isUnlimitedBooksLicense({ bookQuota: m.book_quota })),
    date,
    errors,
  };
}

/** Lengths no admin reaches and a script does (INPUT_LIMITS): refused before anything is sent. */
function assertTeacherEmailLimits(input: { subject?: string; message?: string; memberIds: readonly string[] }): void {
  if ((input.subject?.length ?? 0) > INPUT_LIMITS.emailSubjectMax) {
    throw appError('email_subject_too_long');
  }
  if ((input.message?.length ?? 0) > INPUT_LIMITS.emailMessageMax) {
    throw appError('email_message_too_long');
  }
  if (input.memberIds.length > INPUT_LIMITS.emailMembersMax) {
    throw appError('too_many_recipients');
  }
}

/** What the console shows on 'Review message details': subject, default message and the composed body. */
export async function previewTeacherEmail(
  db: Kysely<DB>,
  actor: Actor,
  settings: TeacherMailSettings,
  input: Omit<SendTeacherEmailInput, 'subject' | 'message'> & { message?: string },
): Promise<TeacherEmailPreview> {
  assertTeacherEmailLimits(input);
  const p = await plan(db, actor, settings, input);
  const message = input.message?.trim() || defaultMessage(input.kind, settings.productName, p.organisationName);
  const first = p.recipients[0]?.email ?? 'teacher@example.org';
  return {
    subject: defaultSubject(input.kind, settings.productName),
    defaultMessage: defaultMessage(input.kind, settings.productName, p.organisationName),
    plain: composeTeacherEmail({
      kind: input.kind, productName: settings.productName, message, everyoneUnlimited: p.everyoneUnlimited, date: p.date,
      signUpLink: p.recipients[0] && !p.recipients[0].pending ? signInUrl(settings.publicUrl, first) : signUpUrl(settings.publicUrl, first),
      signedUp: p.recipients[0] ? !p.recipients[0].pending : false,
    }),
    recipients: p.recipients.length,
    errors: p.errors,
  };
}

/**
 * Sends the welcome e-mail or certification request to each selected teacher through the mail
 * service (outbox + retried job). Students and removed members are skipped and reported in errors.
 */
export async function sendTeacherEmail(
  db: Kysely<DB>,
  actor: Actor,
  mail: Pick<MailService, 'send'>,
  settings: TeacherMailSettings,
  input: SendTeacherEmailInput,
): Promise<SendEmailResult> {
  const invalid = validateWelcomeEmail({ subject: input.subject, message: input.message });
  if (invalid.subject || invalid.message) throw appError('invalid_email_message', { message: (invalid.subject ?? invalid.message) as string });
  assertTeacherEmailLimits(input);
  const p = await plan(db, actor, settings, input);
  const sentTo: string[] = [];
  const errors = [...p.errors];
  for (const recipient of p.recipients) {
    const text = composeTeacherEmail({
      kind: input.kind, productName: settings.productName, message: input.message, everyoneUnlimited: p.everyoneUnlimited,
      date: p.date,
      signUpLink: recipient.pending ? signUpUrl(settings.publicUrl, recipient.email) : signInUrl(settings.publicUrl, recipient.email),
      signedUp: !recipient.pending,
    });
    try {
      await mail.send({ to: recipient.email, subject: input.subject.trim(), text, organisationId: input.organisationId });
      sentTo.push(recipient.id);
    } catch {
      const failed = input.kind === 'welcome' ? teacherMessages.welcomeEmailFailed : teacherMessages.certificationRequestFailed;
      errors.push(`${failed}: ${recipient.email}`);
    }
  }
  await db.transaction().execute((trx) =>
    recordAudit(trx, actor, {
      organisationId: input.organisationId, action: input.kind === 'welcome' ? 'members.email.welcome' : 'members.email.certification', targetType: 'member', targetIds: sentTo,
      details: { subject: input.subject.trim(), skipped: input.memberIds.length - sentTo.length, errors },
    }),
  );
  return { sentTo, errors };
}
