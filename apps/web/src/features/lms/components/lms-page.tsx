import { PageTitle } from '../../../components/ui/page-title.js';

/** LTI credentials. Title only until the screen is built. */
export function LmsPage() {
  return <PageTitle>LMS Integration</PageTitle>;
}
