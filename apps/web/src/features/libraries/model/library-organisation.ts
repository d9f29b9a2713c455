import { createContext, useContext } from 'react';
import { useSession } from '../../../lib/session/index.js';

/**
 * The organisation whose teachers the dialogs act on. Usually the one open; on a district's Teachers list, a school's
 * teacher's own school (docs/districts.md, "District views"): their libraries, licence and membership are the school's.
 */
export const LibraryOrganisationContext = createContext<{ id: string; name: string } | null>(null);

export function useLibraryOrganisation(): { id: string; name: string } {
  const session = useSession();
  const chosen = useContext(LibraryOrganisationContext);
  return chosen ?? { id: session.currentOrganisation?.id ?? '', name: session.currentOrganisation?.name ?? '' };
}
