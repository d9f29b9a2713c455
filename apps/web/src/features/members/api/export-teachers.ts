import type { TeacherStatus } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { listFilterOf, pageWindowOf, type TeachersListQuery } from './get-teachers.js';

export type ExportScope = 'page' | 'all';

/** GET …/members/teachers/export.csv: the server streams the CSV of the page shown or of every match. */
export function fetchTeachersCsv(orgId: string, status: TeacherStatus, query: TeachersListQuery, scope: ExportScope): Promise<Blob> {
  return apiRequest<Blob>(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'teachers', 'export.csv'), {
    query: {
      ...listFilterOf(query),
      sort: query.sort,
      dir: query.dir,
      // The page shown: through the same cursor as the list when it was reached by Next or Previous.
      ...(scope === 'page' ? pageWindowOf(query) : {}),
      scope,
      status,
    },
    headers: { Accept: 'text/csv' },
    responseType: 'blob',
  });
}
