import { useContext, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { SessionControlsContext, getRememberedOrganisation, useSession } from '../../../lib/session/index.js';
import { paths } from '../../../config/paths.js';
import { organisationInPath, rememberReturnTo, takeReturnTo } from '../../../lib/session/return-to.js';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';

/**
 * Guards every console route (spec §2 "Other"): signed out → /sign-in, remembering where the user
 * was going; unverified → /sign-in/verify-email; waiting for the second step → /sign-in/two-step; required to turn
 * 2-step verification on → /account/security; no organisation → /sign-in/organisation.
 */
export function RequireSession() {
  const session = useSession();
  const controls = useContext(SessionControlsContext);
  const location = useLocation();
  const here = `${location.pathname}${location.search}${location.hash}`;
  const state = controls?.state;
  const orgsPending = !!state && (state.organisationsStatus === 'idle' || state.organisationsStatus === 'loading');
  // A reload or a link to /{orgId}/… of an organisation the user has opens it directly (a path naming
  // none, such as /, reopens the remembered one); the picker is for a fresh sign-in with several
  // organisations (spec §4) and for organisations the user does not have.
  const named = organisationInPath(location.pathname) ?? getRememberedOrganisation();
  const restoreTo =
    state && !state.freshSignIn && state.organisationsStatus === 'loaded' && !session.currentOrganisation
      ? session.organisations.find((o) => o.id === named)
      : undefined;

  const restoreId = restoreTo?.id;
  const choose = controls?.chooseOrganisation;
  useEffect(() => {
    // The whole console mounts once it is current: in a transition, so the page load has no single long task for it.
    if (restoreId && choose) void choose(restoreId, { background: true }).catch(() => undefined);
  }, [restoreId, choose]);

  // The remembered page is used up once the console is reached.
  const ready = session.status === 'signed-in' && !!session.currentOrganisation;
  useEffect(() => {
    if (ready) takeReturnTo();
  }, [ready]);

  if (session.status === 'loading') return <FullPageLoader />;
  if (session.status === 'signed-out') {
    // After "Sign out" the next sign-in starts at home, not where the last user left off.
    if (state?.signOutReason !== 'user') rememberReturnTo(here);
    return <Navigate to={paths.signIn.root()} replace />;
  }
  if (session.status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  if (session.status === 'second-step' || session.status === 'enrol') {
    // Held back by 2-step verification (at sign-in, or refused on a request since): back here once it is dealt with.
    rememberReturnTo(here);
    return <Navigate to={session.status === 'enrol' ? paths.account.security() : paths.signIn.twoStep()} replace />;
  }
  if (!session.currentOrganisation) {
    if (orgsPending || restoreTo) return <FullPageLoader />;
    rememberReturnTo(here);
    return <Navigate to={paths.signIn.organisation()} replace />;
  }
  return <Outlet />;
}
