import type { Insertable } from 'kysely';
import type { PortfolioItemsTable, StudentsTable } from '../types.js';
import { iso, type SignedUpTeacher } from './generate-teachers.js';
import { FIRST_NAMES, LAST_NAMES, LIBRARY_KINDS, SUBJECTS } from './names.js';
import type { OrganisationPlan } from './plan.js';
import { Random } from './random.js';

const DAY = 86_400_000;
const TITLE_STARTS = ['My', 'Our', 'The', 'A Day of', 'All About', 'Exploring', 'Why', 'How'];
const TITLE_TOPICS = ['Volcanoes', 'Butterflies', 'the Solar System', 'Fractions', 'the Water Cycle', 'Ancient Egypt', 'Poems', 'Dinosaurs', 'Friendship', 'Recycling', 'Maps', 'the Ocean'];
const GRADES = ['K', '1', '2', '3', '4', '5'];

export interface DemoPortfolios {
  students: Insertable<StudentsTable>[];
  items: Insertable<PortfolioItemsTable>[];
}

/** "jane.doe7@school.org" → "Jane Doe". */
function nameFromEmail(email: string): string {
  return (email.split('@')[0] ?? '')
    .replace(/[0-9]+/g, '')
    .split(/[._-]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join(' ');
}

/**
 * Students of an organisation with studentPortfolios on, and the books they published to their portfolios:
 * each of `plan.portfolioExports` rounds (school terms) publishes some books per student, from a teacher
 * and class of the school. It draws from `rand` exactly as the demo did before portfolios had a data model
 * (so every other row of a seed stays the same); titles, grades and ids come from a stream of their own.
 */
export function generatePortfolios(rand: Random, organisationId: string, plan: OrganisationPlan, teachers: SignedUpTeacher[], reference: number): DemoPortfolios {
  const own = new Random(`quire-demo-portfolios:${organisationId}`);
  const students = Array.from({ length: rand.int(30, 60) }, () => {
    const first = rand.pick(FIRST_NAMES);
    const last = rand.pick(LAST_NAMES);
    const email = `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, '') + `${rand.int(1, 99)}@students.${plan.domain}`;
    return { id: own.id(), name: `${first} ${last}`, email, grade: own.pick(GRADES) };
  });
  const items: Insertable<PortfolioItemsTable>[] = [];
  for (let round = 0; round < plan.portfolioExports; round += 1) {
    const termEnd = reference - (plan.portfolioExports - 1 - round) * 90 * DAY - rand.int(1, 6) * 3600_000;
    for (const [index, student] of students.entries()) {
      const teacher = teachers.length ? rand.pick(teachers) : undefined;
      const className = `${rand.pick(SUBJECTS)} ${rand.pick(LIBRARY_KINDS)}`;
      const pages = rand.int(0, 12 + round);
      const published = rand.int(0, 4 + round);
      // The first student never publishes: the demo always has a student whose portfolio is empty (a row of the
      // export with the student alone), whatever the draws of the day give the others.
      for (let k = 0; k < (index === 0 ? 0 : Math.min(published, 3)); k += 1) {
        const publishedAt = termEnd - own.int(1, 80) * DAY;
        const bookId = own.id();
        items.push({
          id: own.id(), organisation_id: organisationId, student_id: student.id, book_id: bookId,
          book_title: `${own.pick(TITLE_STARTS)} ${own.pick(TITLE_TOPICS)}`, page_count: pages + 2 + k,
          created_at: iso(publishedAt - own.int(1, 20) * DAY), published_at: iso(publishedAt),
          teacher_member_id: teacher?.memberId ?? null, teacher_name: teacher ? nameFromEmail(teacher.email) : null,
          teacher_email: teacher?.email ?? null, class_name: className, book_url: null,
        });
      }
    }
    // The round's id draw of the former export rows.
    rand.id();
  }
  return {
    students: students.map((s) => ({
      id: s.id, organisation_id: organisationId, student_number: null, display_name: s.name, email: s.email,
      grade: s.grade, school_year: null, created_at: iso(reference - 200 * DAY),
    })),
    items,
  };
}
