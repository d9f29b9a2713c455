import { PageTitle } from '../../../components/ui/page-title.js';

/** The image-search setting. Title only until the screen is built. */
export function ImageSearchPage() {
  return <PageTitle>Image Search Settings</PageTitle>;
}
