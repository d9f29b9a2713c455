/**
 * Whether this document is being left: a reload, a bookmark, a typed address, a link to another document. A request the
 * browser cancels as it unloads the page fails in the page's code while the `pagehide` event is still being delivered
 * (after its first listener), so the answer waits for the next task: by then `pagehide` has been delivered in full, or
 * the page is gone and the wait never ends. A request that failed so failed because of the navigation, not because
 * of the server: nothing should act on that failure (least of all sign the admin out, which the next page would
 * then find). `pageshow` clears it when the page comes back from the back/forward cache.
 */
let leaving = false;

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
}

export async function isLeavingPage(): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return leaving;
}
