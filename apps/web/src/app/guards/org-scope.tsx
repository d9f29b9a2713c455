import '../../styles/complete.js';
import { useEffect } from 'react';
import { Navigate, useParams } from 'react-router';
import { FullPageLoader } from '../../components/ui/full-page-loader.js';
import { paths } from '../../config/paths.js';
import { useSession } from '../../lib/session/index.js';
import { AppLayout } from '../layout/app-layout.js';

/**
 * /{orgId}/…: the organisation in the path is the current one. A path naming another of the
 * user's organisations makes that one current; a path naming none of them goes to '/'.
 */
export function OrgScope() {
  const { orgId = '' } = useParams();
  const { organisations, currentOrganisation, selectOrganisation } = useSession();
  const isCurrent = currentOrganisation?.id === orgId;
  const isKnown = organisations.some((o) => o.id === orgId);

  useEffect(() => {
    if (!isCurrent && isKnown) selectOrganisation(orgId);
  }, [isCurrent, isKnown, orgId, selectOrganisation]);

  if (isCurrent) return <AppLayout orgId={orgId} />;
  if (isKnown) return <FullPageLoader label="Loading organisation" />;
  return <Navigate to={paths.root} replace />;
}
