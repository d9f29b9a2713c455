import { useSession } from '../../../lib/session/index.js';
import { useLibraryOrganisation } from '../api/library-organisation.js';
import type { TeacherRef } from '../model/teacher-ref.js';

export interface LibraryAccess {
  /** The acting user is in the organisation's admins list (library managers are not). */
  isAdmin: boolean;
  /** Visiting needs visitLibraries and the acting admin in the admins list (spec §6). */
  canVisit: boolean;
  orgLibraries: boolean;
  organisationName: string;
  /** Whether a teacher is the acting user themselves (no Manage License step then). */
  isSelf: (teacher: Pick<TeacherRef, 'email' | 'userId'>) => boolean;
}

/** Who is acting, against the organisation's admins list and flags; null until the organisation is loaded. */
export function useLibraryAccess(orgId: string): { access: LibraryAccess | null; error: unknown } {
  const session = useSession();
  const organisation = useLibraryOrganisation(orgId);
  const email = (session.user?.email ?? '').toLowerCase();
  const uid = session.user?.uid ?? null;
  if (!organisation.data) return { access: null, error: organisation.error };
  const data = organisation.data;
  const isAdmin = email !== '' && data.admins.some((a) => a.email.toLowerCase() === email);
  return {
    error: null,
    access: {
      isAdmin,
      canVisit: isAdmin && data.features.visitLibraries,
      orgLibraries: data.features.orgLibraries,
      organisationName: data.name,
      isSelf: (teacher) => (email !== '' && teacher.email.toLowerCase() === email) || (uid !== null && teacher.userId === uid),
    },
  };
}
