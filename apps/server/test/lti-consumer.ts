import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';

/**
 * A learning platform's side of an LTI 1.1 launch, signed with an independent OAuth 1.0a consumer
 * library (oauth-1.0a), never with the server's own code.
 */
export interface Consumer {
  key: string;
  secret: string;
}

export interface SignOptions {
  method?: 'HMAC-SHA1' | 'HMAC-SHA256';
  /** Seconds added to the clock the signature claims (clock skew). */
  skewSeconds?: number;
  /** Parameters sent in the launch URL's query instead of the body (signed too). */
  query?: Record<string, string>;
  nonce?: string;
}

export function signLaunch(launchUrl: string, consumer: Consumer, params: Record<string, string>, options: SignOptions = {}) {
  const method = options.method ?? 'HMAC-SHA1';
  const oauth = new OAuth({
    consumer: { key: consumer.key, secret: consumer.secret },
    signature_method: method,
    hash_function: (base, key) => createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key).update(base).digest('base64'),
  });
  if (options.skewSeconds) {
    const skew = options.skewSeconds;
    oauth.getTimeStamp = () => Math.floor(Date.now() / 1000) + skew;
  }
  if (options.nonce) {
    const nonce = options.nonce;
    oauth.getNonce = () => nonce;
  }
  // Percent-encoded (RFC 3986), as platforms write launch URLs.
  const query = Object.entries(options.query ?? {}).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const url = query ? `${launchUrl}?${query}` : launchUrl;
  // A copy: the library merges the query parameters into the data object it is given.
  const authorised = oauth.authorize({ url, method: 'POST', data: { ...params } });
  // The body: the launch parameters and the oauth_* ones (query parameters stay in the URL).
  const oauthParams = Object.entries(authorised).filter(([k]) => k.startsWith('oauth_'));
  return { url, form: { ...params, ...Object.fromEntries(oauthParams.map(([k, v]) => [k, String(v)])) } };
}

/** A typical instructor launch from a course. */
export function launchParams(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = {
    lti_message_type: 'basic-lti-launch-request',
    lti_version: 'LTI-1p0',
    resource_link_id: 'rl-42',
    resource_link_title: 'Our class books',
    context_id: 'course-7',
    user_id: `platform-user-${Math.random().toString(36).slice(2, 10)}`,
    roles: 'Instructor',
    lis_person_name_full: 'Ada Teacher',
    tool_consumer_instance_guid: 'canvas.example.edu',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
}
