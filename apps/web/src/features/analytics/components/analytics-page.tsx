import { PageTitle } from '../../../components/ui/page-title.js';

/** Stat tiles and charts. Title only until the screen is built. */
export function AnalyticsPage() {
  return <PageTitle>Analytics</PageTitle>;
}
