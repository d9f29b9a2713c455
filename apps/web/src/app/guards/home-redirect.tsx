import { Navigate } from 'react-router';
import { paths } from '../../config/paths.js';
import { useSession } from '../../lib/session/index.js';

/** '/' opens the current organisation's home. */
export function HomeRedirect() {
  const { currentOrganisation } = useSession();
  return <Navigate to={currentOrganisation ? paths.org.home(currentOrganisation.id) : paths.signIn.organisation()} replace />;
}
