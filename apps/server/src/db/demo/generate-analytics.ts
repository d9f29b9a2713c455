import { newAnalyticsEvents, type AnalyticsEventRows } from './columns.js';
import type { SignedUpTeacher } from './generate-teachers.js';
import type { Random } from './random.js';

const DAY = 86_400_000;
/** The console's charts reach back 18 months. */
const ANALYTICS_DAYS = 548;

const OS: readonly (readonly [string, number])[] = [['Windows', 34], ['ChromeOS', 30], ['macOS', 15], ['iOS', 13], ['Android', 8]];
const TEACHER_PROVIDERS: readonly (readonly [string, number])[] = [['google', 45], ['office365', 25], ['password', 25], ['clever', 5]];
const STUDENT_PROVIDERS: readonly (readonly [string, number])[] = [['google', 45], ['clever', 30], ['office365', 15], ['password', 10]];

export interface AnalyticsOptions {
  organisationId: string;
  domain: string;
  /** Teachers whose sessions are recorded under their user id. */
  teachers: readonly SignedUpTeacher[];
  /** Midnight UTC of the day after the last recorded day. */
  reference: number;
  /** Average sessions on a school day. */
  sessionsPerDay: number;
  days?: number;
}

/**
 * Session events for the last 18 months, shaped like a school year (quiet weekends, summer and
 * winter breaks, slow growth), yielded in slices of 60 days to keep memory flat.
 */
export function* generateAnalytics(rand: Random, options: AnalyticsOptions): Generator<AnalyticsEventRows> {
  const days = options.days ?? ANALYTICS_DAYS;
  const students = Array.from({ length: Math.max(20, Math.round(options.sessionsPerDay * 2)) }, () => rand.id(28));
  let rows = newAnalyticsEvents();
  // Event ids come from a counter, not the random stream, so the rest of the demo stays as it was.
  let sequence = 0;
  for (let back = days; back >= 1; back--) {
    const dayStart = options.reference - back * DAY;
    const count = Math.round(options.sessionsPerDay * seasonFactor(new Date(dayStart)) * (0.7 + 0.3 * (1 - back / days)) * (0.75 + 0.5 * rand.next()));
    for (let i = 0; i < count; i++) {
      const student = rand.chance(0.65);
      const teacher = !student && options.teachers.length ? rand.pick(options.teachers) : null;
      const provider = rand.weighted(student ? STUDENT_PROVIDERS : TEACHER_PROVIDERS);
      rows.push({
        event_id: `demo-${options.organisationId}-${(sequence++).toString(36)}`,
        organisation_id: options.organisationId,
        occurred_at: new Date(dayStart + rand.int(7 * 3600, 21 * 3600) * 1000).toISOString(),
        user_id: student ? rand.pick(students) : (teacher?.userId ?? null),
        user_kind: student ? 'student' : 'teacher',
        os: rand.weighted(OS),
        provider,
        email_domain: emailDomain(rand, options.domain, student, provider, teacher?.email),
        duration_seconds: student ? rand.int(120, 2700) : rand.int(300, 3600),
      });
    }
    if (back % 60 === 0 && rows.length) {
      yield rows;
      rows = newAnalyticsEvents();
    }
  }
  if (rows.length) yield rows;
}

function seasonFactor(day: Date): number {
  const weekday = day.getUTCDay();
  if (weekday === 0 || weekday === 6) return 0.15;
  const month = day.getUTCMonth();
  if (month === 6 || month === 7) return 0.25;
  if (month === 11 && day.getUTCDate() > 20) return 0.2;
  return 1;
}

function emailDomain(rand: Random, domain: string, student: boolean, provider: string, teacherEmail: string | undefined): string | null {
  // Clever sign-ins of students often carry no e-mail at all.
  if (student && provider === 'clever' && rand.chance(0.5)) return null;
  if (student) return rand.chance(0.85) ? `students.${domain}` : 'gmail.com';
  if (teacherEmail) return teacherEmail.slice(teacherEmail.indexOf('@') + 1);
  return rand.chance(0.9) ? domain : 'gmail.com';
}
