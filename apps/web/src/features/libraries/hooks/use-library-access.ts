import { useOrgAccess } from '../../../lib/access/use-org-access.js';
import { useSession } from '../../../lib/session/index.js';
import { useLibraryOrganisation } from '../api/get-library-organisation.js';
import type { TeacherRef } from '../model/teacher-ref.js';

export interface LibraryAccess {
  /** The acting user is an admin of the organisation, as the server decides it (library managers are not). */
  isAdmin: boolean;
  /** Visiting needs visitLibraries and an admin (spec §6). */
  canVisit: boolean;
  orgLibraries: boolean;
  organisationName: string;
  /** Whether a teacher is the acting user themselves (no Manage License step then). */
  isSelf: (teacher: Pick<TeacherRef, 'email' | 'userId'>) => boolean;
}

/** Who is acting (useOrgAccess) and the organisation's flags; null until both are loaded. */
export function useLibraryAccess(orgId: string): { access: LibraryAccess | null; error: unknown } {
  const session = useSession();
  const organisation = useLibraryOrganisation(orgId);
  const orgAccess = useOrgAccess(orgId);
  const email = (session.user?.email ?? '').toLowerCase();
  const uid = session.user?.uid ?? null;
  if (!organisation.data || orgAccess.isPending) return { access: null, error: organisation.error ?? orgAccess.error };
  const data = organisation.data;
  const isAdmin = orgAccess.isAdmin;
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
