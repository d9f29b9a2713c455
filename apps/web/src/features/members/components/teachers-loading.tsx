import { SectionLoader } from '../../../components/ui/section-loader.js';

/** The Teachers screen's wait: the organisation, then the list, then the table being drawn (teachers-table.tsx). */
export function TeachersLoading() {
  return <SectionLoader label="Loading teachers" />;
}
