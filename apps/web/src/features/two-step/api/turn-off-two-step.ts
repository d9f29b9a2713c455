import type { TwoStepProof } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';

const twoStepChangedSchema = lazyContract((c) => c.twoStepChangedSchema);

/** POST {api}/two-step/disable: turns 2-step verification off, after the password or a current code. */
export async function turnOffTwoStep(proof: TwoStepProof): Promise<void> {
  await apiRequest(serviceUrl('api', '/two-step/disable'), { method: 'POST', json: proof, schema: twoStepChangedSchema });
}
