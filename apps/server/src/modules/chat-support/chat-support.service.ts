import { createHmac } from 'node:crypto';
import type { Env } from '../../env.js';
import { appError } from '../../errors.js';

/** The chat-support identity hash: hex HMAC-SHA256 of the user id. */
export function chatSupportHash(env: Env, provider: string, userId: string): string {
  if (provider !== env.CHAT_SUPPORT_PROVIDER || !env.CHAT_SUPPORT_SECRET) {
    throw appError('chat_support_disabled');
  }
  return createHmac('sha256', env.CHAT_SUPPORT_SECRET).update(userId).digest('hex');
}
