import { z } from 'zod';

/** A book's cover shape (spec §3 "Featured book"). */
const bookShapeSchema = z.enum(['landscape', 'square', 'portrait']);

/** Spec §3 "Featured book": an example book shown under 'Supercharge your {product} lessons'. */
const featuredBookSchema = z.object({
  /** The id of the user whose library holds the book (the cover call's {userId}). */
  uid: z.string(),
  bookId: z.string(),
  shape: bookShapeSchema,
  title: z.string(),
});
export type FeaturedBook = z.infer<typeof featuredBookSchema>;

/** Spec §3 "Resource card": a link out with an icon. */
const resourceCardSchema = z.object({
  title: z.string(),
  link: z.string(),
  /** A short icon key the console maps to a picture (e.g. 'math'). */
  icon: z.string(),
  /** The icon's accessible name. */
  iconName: z.string(),
});
export type ResourceCard = z.infer<typeof resourceCardSchema>;

/** A colour card of a school level (kindergarten, elementary, middle school, high school). */
const levelCardSchema = z.object({
  level: z.enum(['kindergarten', 'elementary', 'middle-school', 'high-school']),
  title: z.string(),
  link: z.string(),
});
export type LevelCard = z.infer<typeof levelCardSchema>;

/** GET {api}/teacher-resources: everything Teacher Resources shows, its links from configuration. */
export const teacherResourcesSchema = z.object({
  /** The grade labels under 'Resources by grade' (spec §2: a heading and its labels). */
  gradeLabels: z.array(z.string()),
  levels: z.array(levelCardSchema),
  subjects: z.array(resourceCardSchema),
  featuredBooks: z.array(featuredBookSchema),
  /** The reader site and its fixed library where featured books open. */
  readerUrl: z.string(),
  readerLibraryId: z.string(),
  promos: z.object({ community: z.string(), staffTraining: z.string(), gettingStarted: z.string() }),
});
export type TeacherResources = z.infer<typeof teacherResourcesSchema>;

/** Query of the cover call: width (250 on Teacher Resources) and the optional retry marker. */
export const coverQuerySchema = z.object({
  width: z.coerce.number().int().min(16).max(1200).default(250),
  retry: z.string().max(8).optional(),
});
