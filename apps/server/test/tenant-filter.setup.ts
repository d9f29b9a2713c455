import { afterAll } from 'vitest';
import { checkTenantStatements } from './tenant-statements.js';

// After each file of the server project: the statements its tests ran on tenant tables name their organisation.
afterAll(checkTenantStatements);
