import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

/**
 * The learning platform's side of an LTI 1.1 launch, signed with an independent OAuth 1.0a library
 * (oauth-1.0a): the form fields a platform posts from the user's browser.
 */
export function signedLaunchForm(launchUrl: string, consumer: { key: string; secret: string }, params: Record<string, string>, method: 'HMAC-SHA1' | 'HMAC-SHA256' = 'HMAC-SHA1') {
  const oauth = new OAuth({
    consumer,
    signature_method: method,
    hash_function: (base, key) => createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key).update(base).digest('base64'),
  });
  const authorised = oauth.authorize({ url: launchUrl, method: 'POST', data: { ...params } });
  const oauthFields = Object.entries(authorised).filter(([k]) => k.startsWith('oauth_'));
  return { ...params, ...Object.fromEntries(oauthFields.map(([k, v]) => [k, String(v)])) };
}
