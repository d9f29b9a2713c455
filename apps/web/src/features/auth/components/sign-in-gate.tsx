import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { paths } from '../../../config/paths.js';
import { useSession } from '../../../lib/session/index.js';
import { peekReturnTo } from '../return-to.js';

/**
 * Wraps the sign-in method screens: a spinner until auth is initialised, then signed-in users go on
 * to where they were going (or home) and unverified users to "Verify your email".
 */
export function SignInGate({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <FullPageLoader />;
  if (status === 'signed-in') return <Navigate to={peekReturnTo() ?? paths.root} replace />;
  if (status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  return children;
}
