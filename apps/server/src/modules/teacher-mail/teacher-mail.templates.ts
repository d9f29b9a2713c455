import { CERTIFICATION_COURSE_HOURS, formatOrdinalDate, WELCOME_EMAIL_DEFAULT_DAYS } from '@quire/core';

/** The two e-mails an admin sends teachers: the welcome e-mail and the certification request. */
export type TeacherEmailKind = 'welcome' | 'certification';

/** The subject the console shows, fixed and read-only (spec §5). */
export function defaultSubject(kind: TeacherEmailKind, productName: string): string {
  return kind === 'welcome' ? `Welcome to ${productName}` : `Get certified with ${productName}`;
}

/** The message the console pre-fills for the admin to edit. */
export function defaultMessage(kind: TeacherEmailKind, productName: string, organisationName: string): string {
  return kind === 'welcome'
    ? `${organisationName} has set you up with ${productName}, so you and your students can create books together.`
    : `${organisationName} would like you to become a certified ${productName} teacher.`;
}

/** The welcome e-mail's default date: 14 days from now (spec §9). */
export function defaultWelcomeDate(now: Date = new Date()): Date {
  return new Date(now.getTime() + WELCOME_EMAIL_DEFAULT_DAYS * 24 * 60 * 60 * 1000);
}

/** Where a teacher creates their account: {PUBLIC_URL}/sign-in/register/{email}. */
export function signUpUrl(publicUrl: string, email: string): string {
  return `${publicUrl.replace(/\/$/, '')}/sign-in/register/${encodeURIComponent(email)}`;
}

/** Where a teacher who has signed up already signs in: {PUBLIC_URL}/sign-in/email/{email}. */
export function signInUrl(publicUrl: string, email: string): string {
  return `${publicUrl.replace(/\/$/, '')}/sign-in/email/${encodeURIComponent(email)}`;
}

/** The licence sentence of the welcome e-mail, used only when every recipient has a 1000-book licence. */
function licenseSentence(productName: string): string {
  return `Your ${productName} licence gives you unlimited libraries and up to 1000 books, with real-time collaboration with your students and co-teachers.`;
}

function certificationSentence(productName: string): string {
  const hours = CERTIFICATION_COURSE_HOURS === 1 ? 'about 1 hour' : `about ${CERTIFICATION_COURSE_HOURS} hours`;
  return `The ${productName} certification course is online and takes ${hours} to complete.`;
}

export interface ComposeInput {
  kind: TeacherEmailKind;
  productName: string;
  /** The admin's message (body.plain). */
  message: string;
  /** Welcome only: every recipient holds a 1000-book licence. */
  everyoneUnlimited: boolean;
  /** Welcome only: the date to sign up by. */
  date: Date;
  signUpLink: string;
  /** The recipient has an account already: a sign-in link, no deadline to create one. */
  signedUp?: boolean;
}

/** The plain-text body one recipient receives. */
export function composeTeacherEmail(input: ComposeInput): string {
  const parts = [input.message.trim()];
  if (input.kind === 'welcome') {
    if (input.everyoneUnlimited) parts.push(licenseSentence(input.productName));
    parts.push(
      input.signedUp
        ? `Sign in to your account to get started:\n${input.signUpLink}`
        : `Please create your account by ${formatOrdinalDate(input.date, { utc: true })}:\n${input.signUpLink}`,
    );
  } else {
    parts.push(certificationSentence(input.productName));
    parts.push(
      input.signedUp
        ? `Sign in to your account to start the course:\n${input.signUpLink}`
        : `Sign in or create your account to start the course:\n${input.signUpLink}`,
    );
  }
  return `${parts.join('\n\n')}\n`;
}
