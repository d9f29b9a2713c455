import type { Kysely } from 'kysely';
import type { TeacherResources } from '@quire/core';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { listFeaturedBooks } from './assets.repository.js';
import { ensureFeaturedBooks } from './featured-books.js';

/** Spec §2 "Teacher Resources" 1: the grade labels under the heading. */
const GRADE_LABELS = ['Elementary / Primary', 'High School / Secondary', 'Pre-Kindergarten / Kindergarten', 'Middle School'];

const LEVELS = [
  { level: 'kindergarten', title: 'Kindergarten', slug: 'kindergarten' },
  { level: 'elementary', title: 'Elementary', slug: 'elementary' },
  { level: 'middle-school', title: 'Middle School', slug: 'middle-school' },
  { level: 'high-school', title: 'High School', slug: 'high-school' },
] as const;

/** Spec §2 "Teacher Resources" 2: the eight subject cards, in the spec's order. */
const SUBJECTS = [
  { title: 'English Language / Arts', icon: 'ela', iconName: 'Open book', slug: 'english-language-arts' },
  { title: 'Math', icon: 'math', iconName: 'Calculator', slug: 'math' },
  { title: 'Science', icon: 'science', iconName: 'Flask', slug: 'science' },
  { title: 'Social Studies', icon: 'social-studies', iconName: 'Globe', slug: 'social-studies' },
  { title: 'Languages', icon: 'languages', iconName: 'Speech bubbles', slug: 'languages' },
  { title: 'Special Education', icon: 'special-education', iconName: 'Puzzle piece', slug: 'special-education' },
  { title: 'Creative Arts', icon: 'creative-arts', iconName: 'Palette', slug: 'creative-arts' },
  { title: 'P.E / Health', icon: 'pe-health', iconName: 'Heart', slug: 'pe-health' },
];

const under = (base: string, path: string) => `${base.replace(/\/+$/, '')}/${path}`;

/** Everything Teacher Resources shows; every link out comes from configuration (RESOURCES_URL and the README's links). */
export async function getTeacherResources(db: Kysely<DB>, env: Env): Promise<TeacherResources> {
  await ensureFeaturedBooks(db);
  const books = await listFeaturedBooks(db);
  return {
    gradeLabels: GRADE_LABELS,
    levels: LEVELS.map((l) => ({ level: l.level, title: l.title, link: under(env.RESOURCES_URL, `grades/${l.slug}`) })),
    subjects: SUBJECTS.map((s) => ({ title: s.title, icon: s.icon, iconName: s.iconName, link: under(env.RESOURCES_URL, `subjects/${s.slug}`) })),
    featuredBooks: books.map((b) => ({ uid: b.owner_user_id, bookId: b.book_id, shape: b.shape, title: b.title })),
    readerUrl: env.READER_URL,
    readerLibraryId: env.READER_LIBRARY_ID,
    promos: { community: env.COMMUNITY_URL, staffTraining: env.STAFF_TRAINING_URL, gettingStarted: env.GETTING_STARTED_URL },
  };
}
