import { PageTitle } from '../../../components/ui/page-title.js';

/** Student portfolio export. Title only until the screen is built. */
export function PortfoliosPage() {
  return <PageTitle>Portfolios</PageTitle>;
}
