import { useEffect } from 'react';

/** "Teachers | Quire": the screen first, so tabs and history show what matters. */
function formatDocumentTitle(screenTitle: string, productName: string): string {
  if (!productName) return screenTitle;
  return screenTitle ? `${screenTitle} | ${productName}` : productName;
}

/** Sets document.title while the calling screen is shown. */
export function useDocumentTitle(screenTitle: string, productName: string): void {
  useEffect(() => {
    document.title = formatDocumentTitle(screenTitle, productName);
  }, [screenTitle, productName]);
}
