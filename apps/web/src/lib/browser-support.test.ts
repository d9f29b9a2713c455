import { describe, expect, it } from 'vitest';
import { isSupportedBrowser, unsupportedRedirect } from './browser-support.js';

const supported: Array<[string, string]> = [
  ['Chrome 126 on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'],
  ['headless Chromium', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36'],
  ['Chrome on iOS', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1'],
  ['Firefox 127 on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:127.0) Gecko/20100101 Firefox/127.0'],
  ['Firefox on iOS', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15'],
  ['Edge (Chromium)', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68'],
  ['Edge legacy 18', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041'],
  ['Android stock browser', 'Mozilla/5.0 (Linux; U; Android 4.0.3; en-us; GT-I9100 Build/IML74K) AppleWebKit/534.30 (KHTML, like Gecko) Version/4.0 Mobile Safari/534.30'],
  ['Samsung Internet', 'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36'],
  ['iOS Safari 17', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'],
  ['iOS Safari 7 (iOS Safari has no version floor)', 'Mozilla/5.0 (iPad; CPU OS 7_0 like Mac OS X) AppleWebKit/537.51.1 (KHTML, like Gecko) Version/7.0 Mobile/11A465 Safari/9537.53'],
  ['Safari 8 on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_10) AppleWebKit/600.1.25 (KHTML, like Gecko) Version/8.0 Safari/600.1.25'],
  ['Safari 17 on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'],
  ['Internet Explorer 11', 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko'],
];

const unsupported: Array<[string, string]> = [
  ['Safari 7 on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_3) AppleWebKit/537.75.14 (KHTML, like Gecko) Version/7.0.3 Safari/537.75.14'],
  ['Safari 6 on macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_8_5) AppleWebKit/536.30.1 (KHTML, like Gecko) Version/6.0.5 Safari/536.30.1'],
  ['Internet Explorer 10', 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)'],
  ['Internet Explorer 9', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)'],
  ['Internet Explorer 8', 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)'],
  ['Opera Presto', 'Opera/9.80 (Windows NT 6.1; WOW64) Presto/2.12.388 Version/12.18'],
  ['a command-line client', 'curl/8.5.0'],
  ['no user agent', ''],
];

describe('isSupportedBrowser', () => {
  it.each(supported)('supports %s', (_name, userAgent) => {
    expect(isSupportedBrowser(userAgent)).toBe(true);
  });

  it.each(unsupported)('does not support %s', (_name, userAgent) => {
    expect(isSupportedBrowser(userAgent)).toBe(false);
  });
});

describe('unsupportedRedirect', () => {
  const ie10 = 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; Trident/6.0)';
  const chrome = supported[0]?.[1] ?? '';

  it('sends an unsupported browser to /unsupported from any page', () => {
    expect(unsupportedRedirect('/org-1/teachers', ie10)).toBe('/unsupported');
    expect(unsupportedRedirect('/sign-in', ie10)).toBe('/unsupported');
  });

  it('leaves an unsupported browser on /unsupported, and a supported one anywhere', () => {
    expect(unsupportedRedirect('/unsupported', ie10)).toBeNull();
    expect(unsupportedRedirect('/org-1/teachers', chrome)).toBeNull();
  });
});
