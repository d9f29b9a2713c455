import { PageTitle } from '../../../components/ui/page-title.js';

/** Teacher resources. Title only until the screen is built. */
export function ResourcesPage() {
  return <PageTitle>Teacher Resources</PageTitle>;
}
