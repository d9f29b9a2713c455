import type { RecoveryCodes, TwoStepProof } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const recoveryCodesSchema = lazyContract((c) => c.recoveryCodesSchema);

/** POST {api}/two-step/recovery-codes: new recovery codes (the old ones stop working), after the password or a code. */
export function regenerateRecoveryCodes(proof: TwoStepProof): Promise<RecoveryCodes> {
  return apiRequest(serviceUrl('api', '/two-step/recovery-codes'), { method: 'POST', json: proof, schema: recoveryCodesSchema });
}
