import type { OrganisationSettings } from '../types.js';

/** What the generator builds for one organisation; the demo district is a list of these. */
export interface OrganisationPlan {
  name: string;
  /** The name of the plan above it (a school's district), seeded first; omitted: a stand-alone organisation. */
  parentName?: string;
  /** E-mail domain of its teachers, e.g. maplegrove.example.org. */
  domain: string;
  /** Generated teachers (active, pending and inactive), beside the fixed members. */
  teachers: number;
  isDomain: boolean;
  orgLibraries: boolean;
  studentPortfolios: boolean;
  visitLibraries: boolean;
  settings: OrganisationSettings;
  licenses: LicensePlan[];
  /** LTI credentials (the demo gives them to one organisation only). */
  lti: boolean;
  /** Named people placed first, e.g. the demo admin as a teacher or teachers with a password. */
  fixedMembers: FixedMemberPlan[];
  /** Admins who are not generated teachers (e.g. the demo admin, an IT office address). */
  admins: AdminPlan[];
  /** How many of the first signed-up generated teachers are also admins. */
  teacherAdmins: number;
  /** Average sessions on a school day, for the analytics history. */
  sessionsPerDay: number;
  /** Portfolio export files to keep (only with studentPortfolios). */
  portfolioExports: number;
}

/** 'full': no licence left; 'nearly': two or three left; 'roomy': about a third more than assigned. */
export type LicenseFill = 'full' | 'nearly' | 'roomy';

interface LicensePlan {
  name: string;
  bookQuota: number;
  /** null: UNLIMITED libraries. */
  libraryQuota: number | null;
  applyToAll: boolean;
  /** Share of eligible teachers holding it (ignored for apply-to-all, which every teacher holds). */
  share: number;
  fill: LicenseFill;
}

export interface FixedMemberPlan {
  email: string;
  name: string;
  /** An identity user created beforehand (e.g. the demo admin); without it the generator makes one. */
  userId?: string;
  /** Organisation role (default teacher, 600). */
  role?: number;
  /** Index into the plan's licences. */
  license?: number;
}

interface AdminPlan {
  email: string;
  userId?: string;
}
