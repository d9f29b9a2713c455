import type { ServerModule } from '../../plugins/server-module.js';
import { twoStepRoutes } from './two-step.routes.js';

/** 2-step verification (docs/identity.md "2-step verification"). */
export const twoStepModule: ServerModule = { name: 'two-step', plugin: twoStepRoutes };
