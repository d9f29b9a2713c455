import { PageTitle } from '../../../components/ui/page-title.js';

/** Admin management. Title only until the screen is built. */
export function AdminsPage() {
  return <PageTitle>Admin</PageTitle>;
}
