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

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-teachers-list-indexes': m0002,
  '0003-rate-limits': m0003,
  '0004-settings-lti': m0004,
  '0005-analytics': m0005,
  '0006-portfolios': m0006,
  '0008-screens': m0008,
  '0009-provider-staff-members': m0009,
  '0010-member-counts': m0010,
  '0011-lti-identity': m0011,
  '0012-organisation-tree': m0012,
  '0013-avatar-images': m0013,
  '0014-setting-policies': m0014,
  '0015-license-allocations': m0015,
  '0016-member-list-versions': m0016,
};
