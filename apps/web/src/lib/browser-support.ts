/**
 * The browser check of spec §5: Chrome, Firefox, Edge, Android, iOS Safari, Safari above 7 and
 * Internet Explorer above 10 are supported; anything else is sent to /unsupported.
 * @internal
 */
export function isSupportedBrowser(userAgent: string): boolean {
  const ua = userAgent;

  // Internet Explorer: "MSIE n" up to 10, "Trident/… rv:11" for 11.
  const msie = /MSIE (\d+)/.exec(ua);
  if (msie) return Number(msie[1]) > 10;
  const trident = /Trident\/.*\brv:(\d+)/.exec(ua);
  if (trident) return Number(trident[1]) > 10;

  // Edge (legacy "Edge/", Chromium "Edg/", Android "EdgA/", iOS "EdgiOS/").
  if (/\bEdg(?:e|A|iOS)?\/\d/.test(ua)) return true;
  if (/\b(?:Firefox|FxiOS)\/\d/.test(ua)) return true;
  // Chrome, Chromium, Chrome on iOS, and headless Chrome (what automated tests run).
  if (/\b(?:Headless)?(?:Chrome|Chromium|CriOS)\/\d/.test(ua)) return true;
  if (/\bAndroid\b/.test(ua)) return true;
  // iOS Safari (and every iOS browser, which all run on Safari's engine).
  if (/\b(?:iPhone|iPad|iPod)\b/.test(ua)) return true;

  const safari = /\bVersion\/(\d+)(?:\.\d+)*.*\bSafari\//.exec(ua);
  if (safari) return Number(safari[1]) > 7;

  return false;
}

/**
 * Where an unsupported browser must go before anything renders: the /unsupported path, or null
 * when the browser is supported or already there.
 */
export function unsupportedRedirect(pathname: string, userAgent: string, unsupportedPath = '/unsupported'): string | null {
  if (pathname === unsupportedPath || isSupportedBrowser(userAgent)) return null;
  return unsupportedPath;
}
