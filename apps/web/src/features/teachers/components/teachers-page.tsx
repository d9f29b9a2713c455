import { PageTitle } from '../../../components/ui/page-title.js';

/** Teacher management. Title only until the screen is built. */
export function TeachersPage() {
  return <PageTitle>Teachers</PageTitle>;
}
