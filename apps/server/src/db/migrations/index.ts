import type { Migration } from 'kysely';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-teachers-list-indexes.js';
import * as m0003 from './0003-rate-limits.js';
import * as m0004 from './0004-settings-lti.js';
import * as m0005 from './0005-analytics.js';
import * as m0006 from './0006-portfolios.js';
import * as m0008 from './0008-screens.js';
import * as m0009 from './0009-provider-staff-members.js';
import * as m0010 from './0010-member-counts.js';
import * as m0011 from './0011-lti-identity.js';
import * as m0012 from './0012-organisation-tree.js';
import * as m0013 from './0013-avatar-images.js';
import * as m0014 from './0014-setting-policies.js';
import * as m0015 from './0015-license-allocations.js';
import * as m0016 from './0016-member-list-versions.js';
import * as m0017 from './0017-audit-log.js';
import * as m0018 from './0018-two-step.js';
import * as m0019 from './0019-lti-advantage.js';
import * as m0020 from './0020-audit-log-search.js';
import * as m0021 from './0021-scim.js';
import * as m0022 from './0022-scim-groups.js';
import * as m0023 from './0023-oneroster.js';
import * as m0024 from './0024-passkeys.js';
import * as m0025 from './0025-audit-identity-provider.js';
import * as m0028 from './0028-scim-library-manager-grants.js';
import * as m0029 from './0029-tenant-keys.js';
import * as m0030 from './0030-district-teacher-orders.js';

/**
 * Every migration, in order. Add new ones at the end; never edit one that has shipped. Each entry names the file's
 * `up` and `down`, so the unused-export check (knip, in `npm run lint`) sees them used.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': { up: m0001.up, down: m0001.down },
  '0002-teachers-list-indexes': { up: m0002.up, down: m0002.down },
  '0003-rate-limits': { up: m0003.up, down: m0003.down },
  '0004-settings-lti': { up: m0004.up, down: m0004.down },
  '0005-analytics': { up: m0005.up, down: m0005.down },
  '0006-portfolios': { up: m0006.up, down: m0006.down },
  '0008-screens': { up: m0008.up, down: m0008.down },
  '0009-provider-staff-members': { up: m0009.up, down: m0009.down },
  '0010-member-counts': { up: m0010.up, down: m0010.down },
  '0011-lti-identity': { up: m0011.up, down: m0011.down },
  '0012-organisation-tree': { up: m0012.up, down: m0012.down },
  '0013-avatar-images': { up: m0013.up, down: m0013.down },
  '0014-setting-policies': { up: m0014.up, down: m0014.down },
  '0015-license-allocations': { up: m0015.up, down: m0015.down },
  '0016-member-list-versions': { up: m0016.up, down: m0016.down },
  '0017-audit-log': { up: m0017.up, down: m0017.down },
  '0018-two-step': { up: m0018.up, down: m0018.down },
  '0019-lti-advantage': { up: m0019.up, down: m0019.down },
  '0020-audit-log-search': { up: m0020.up, down: m0020.down },
  '0021-scim': { up: m0021.up, down: m0021.down },
  '0022-scim-groups': { up: m0022.up, down: m0022.down },
  '0023-oneroster': { up: m0023.up, down: m0023.down },
  '0024-passkeys': { up: m0024.up, down: m0024.down },
  '0025-audit-identity-provider': { up: m0025.up, down: m0025.down },
  '0028-scim-library-manager-grants': { up: m0028.up, down: m0028.down },
  '0029-tenant-keys': { up: m0029.up, down: m0029.down },
  '0030-district-teacher-orders': { up: m0030.up, down: m0030.down },
};
