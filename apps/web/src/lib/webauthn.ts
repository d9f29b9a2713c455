import type { PasskeyOptions } from '@quire/core';

/**
 * The browser's passkey calls (navigator.credentials.create / get) through @simplewebauthn/browser, loaded with the
 * first use. A person closing the browser's prompt, or letting it time out, is not an error of the console: it
 * throws PasskeyCancelled with a text to show.
 */
export class PasskeyCancelled extends Error {
  constructor(message = 'The passkey request was cancelled or timed out. Try again when you are ready.') {
    super(message);
    this.name = 'PasskeyCancelled';
  }
}

/** Whether this browser can use passkeys at all (WebAuthn and a secure context). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';
}

function browserFailure(error: unknown): Error {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return new PasskeyCancelled();
  if (name === 'InvalidStateError') return new PasskeyCancelled('This passkey is already on your account.');
  return new PasskeyCancelled('This browser could not use a passkey here.');
}

/** Makes a passkey with the server's creation options; answers WebAuthn's JSON for the server to check. */
export async function createPasskey(options: PasskeyOptions): Promise<unknown> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  try {
    return await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  } catch (error) {
    throw browserFailure(error);
  }
}

/** Signs the server's challenge with a passkey (one of `allowCredentials`, or any of this site's when none is named). */
export async function signWithPasskey(options: PasskeyOptions): Promise<unknown> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  try {
    return await startAuthentication({ optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  } catch (error) {
    throw browserFailure(error);
  }
}
