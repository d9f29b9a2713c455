import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { paths } from '../../../config/paths.js';
import { useSession } from '../../../lib/session/index.js';
import { peekReturnTo } from '../../../lib/session/return-to.js';

/**
 * Wraps the sign-in method screens: a spinner until auth is initialised, then signed-in users go on
 * to where they were going (or home), unverified users to "Verify your email", a session waiting for its second step
 * to the second step, and an admin who must turn 2-step verification on to the Security page.
 */
export function SignInGate({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signed-in') return <Navigate to={peekReturnTo() ?? paths.root} replace />;
  if (status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  if (status === 'second-step') return <Navigate to={paths.signIn.twoStep()} replace />;
  if (status === 'enrol') return <Navigate to={paths.account.security()} replace />;
  return children;
}
