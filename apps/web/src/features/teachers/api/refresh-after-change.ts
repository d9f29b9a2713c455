import type { QueryClient } from '@tanstack/react-query';
import { teachersQueryRoot } from './get-teachers.js';

/** After a change: every list of the organisation and its licence counts (dashboard included) reload. */
export function refreshAfterChange(queryClient: QueryClient, orgId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: teachersQueryRoot(orgId) }),
    queryClient.invalidateQueries({ queryKey: ['organisation', orgId] }),
  ]).then(() => undefined);
}
