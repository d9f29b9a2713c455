import { PageTitle } from '../../../components/ui/page-title.js';

/** The licence dashboard (Home). Title only until the screen is built. */
export function LicencesPage() {
  return <PageTitle>Licenses</PageTitle>;
}
