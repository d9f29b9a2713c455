import type { Passkey, PasskeyAdded } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { createPasskey } from '../../../lib/webauthn.js';

const passkeyOptionsSchema = lazyContract((c) => c.passkeyOptionsSchema);
const passkeyAddedSchema = lazyContract((c) => c.passkeyAddedSchema);
const passkeySchema = lazyContract((c) => c.passkeySchema);
const twoStepChangedSchema = lazyContract((c) => c.twoStepChangedSchema);

const passkeyUrl = (id: string) => serviceUrl('api', `/two-step/passkeys/${encodeURIComponent(id)}`);

/**
 * POST {api}/two-step/passkeys/options, the browser's passkey prompt, then POST {api}/two-step/passkeys: adds a passkey.
 * The first second factor of the account turns 2-step verification on and answers recovery codes.
 */
export async function addPasskey(name: string): Promise<PasskeyAdded> {
  const options = await apiRequest(serviceUrl('api', '/two-step/passkeys/options'), { method: 'POST', schema: passkeyOptionsSchema });
  const response = await createPasskey(options);
  return apiRequest(serviceUrl('api', '/two-step/passkeys'), { method: 'POST', json: { name, response }, schema: passkeyAddedSchema });
}

/** PATCH {api}/two-step/passkeys/{id}. */
export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return apiRequest(passkeyUrl(id), { method: 'PATCH', json: { name }, schema: passkeySchema });
}

/** DELETE {api}/two-step/passkeys/{id} (not the account's only second factor: that is turning 2-step verification off). */
export async function removePasskey(id: string): Promise<void> {
  await apiRequest(passkeyUrl(id), { method: 'DELETE', schema: twoStepChangedSchema });
}
