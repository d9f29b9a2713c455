import { useQueryClient } from '@tanstack/react-query';
import { hasErrorCode, userFacingMessage } from '../api/index.js';
import { notifyError } from '../notify.js';
import { queryKeys } from '../query-keys.js';

/**
 * For a settings page's save: a district locked the setting since the page loaded. The returned check shows the
 * district's reason (or `fallback`) and reloads the settings so the page shows the lock; it answers false for any
 * other failure, which the page reports in its own words.
 */
export function useLockedMeanwhile(orgId: string, fallback: string): (error: unknown) => boolean {
  const queryClient = useQueryClient();
  return (error) => {
    if (!hasErrorCode(error, 'setting_locked_by_district')) return false;
    notifyError(userFacingMessage(error) ?? fallback);
    void queryClient.invalidateQueries({ queryKey: queryKeys.settings(orgId) });
    return true;
  };
}
