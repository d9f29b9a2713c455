import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { paths } from '../../config/paths.js';
import type { OrganisationFeatures } from '@quire/core';
import { useSession } from '../../lib/session/index.js';

/**
 * Screens that exist only while the current organisation has a feature (spec §2: Portfolios);
 * otherwise '/'. Renders its children, or the child routes.
 */
export function RequireFeature({ feature, children }: { feature: keyof OrganisationFeatures; children?: ReactNode }) {
  const { currentOrganisation } = useSession();
  if (!currentOrganisation?.features[feature]) return <Navigate to={paths.root} replace />;
  return children ?? <Outlet />;
}
