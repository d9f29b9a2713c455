import { PageTitle } from '../../../components/ui/page-title.js';

/** Per-app permissions. Title only until the screen is built. */
export function AppsPage() {
  return <PageTitle>Manage Apps</PageTitle>;
}
