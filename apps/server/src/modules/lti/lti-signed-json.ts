/**
 * The LTI tool's own signed values (a login's state, a deep linking context, a registration address's token) are
 * `<JSON, base64url>.<signature>`. This reads one back as it stands: the encoded JSON, its signature and the object, or
 * null when the value is not of that shape. Checking the fields and the signature is the caller's.
 */
export function readSignedJson<T>(value: string): { body: string; signature: string; payload: T } | null {
  const [body, signature, extra] = value.split('.');
  if (!body || !signature || extra !== undefined) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!payload || typeof payload !== 'object') return null;
  return { body, signature, payload: payload as T };
}
