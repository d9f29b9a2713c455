import { expect, it } from 'vitest';
import * as c from './constants.js';

// §9 numbers: a change here changes what users see, so it must be deliberate.
it.each([
  ['DEFAULT_PAGE_SIZE', 10],
  ['TABLE_ROW_HEIGHT', 58],
  ['TOKEN_REFRESH_MS', 2_700_000],
  ['SESSION_COOKIE_NAME', '__admin_session'],
  ['SESSION_MAX_AGE_SECONDS', 86_400 / 24],
  ['BC_ORG', 'BC_ORG'],
  ['ORGANISATION_NAME_MAX', 128],
  ['PASSWORD_MIN_LENGTH', 6],
  ['VISIT_REASON_MAX', 65],
  ['NOTIFICATION_ERROR_MS', 5000],
  ['NOTIFICATION_INFO_MS', 2000],
  ['MENU_CLOSE_DELAY_MS', 2000],
  ['MODAL_WIDTH_DEFAULT', 388],
  ['PRIVACY_DIALOG_WIDTH', 445],
  ['AVATAR_SIZE', 36],
  ['WIDE_LAYOUT_MIN_WIDTH', 1150],
  ['APPS_TABLE_MAX_WIDTH', 650],
  ['EMAIL_VERIFICATION_POLL_MS', 10_000],
  ['APP_PERMISSION_TEACHERS_ONLY', 1],
  ['APP_PERMISSION_DISABLED', -1],
  ['IMAGE_SEARCH_PIXABAY', 'pixabay'],
  ['OFFICE365_SCOPE', 'User.Read'],
  ['COVER_THUMBNAIL_WIDTH', 250],
  ['COVER_RETRY_DELAY_MS', 2000],
  ['CHART_HISTORY_MONTHS', 18],
  ['PIE_CHART_HEIGHT', 300],
  ['CHART_HEIGHT', 400],
  ['WELCOME_EMAIL_DEFAULT_DAYS', 14],
] as const)('%s = %j', (name, value) => {
  expect(c[name]).toBe(value);
});

it('offers the page sizes 10, 20, 50, 100', () => {
  expect(c.PAGE_SIZES).toEqual([10, 20, 50, 100]);
});
