/** The business constants and limits of spec §9, in one place for the console and the server. */

/** Table page sizes; paging controls show only when there are more rows than the default. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 10;
export const TABLE_ROW_HEIGHT = 58;

/** Identity token refresh: 45 minutes. */
export const TOKEN_REFRESH_MS = 2_700_000;
export const SESSION_COOKIE_NAME = '__admin_session';
/** Session lifetime: 1/24 of a day. */
export const SESSION_MAX_AGE_SECONDS = 60 * 60;
/** Key of the remembered organisation in the browser's storage. */
export const BC_ORG = 'BC_ORG';

export const ORGANISATION_NAME_MAX = 128;
export const PASSWORD_MIN_LENGTH = 6;
export const VISIT_REASON_MAX = 65;

/** Notifications: errors stay 5 s, info notices 2 s. */
export const NOTIFICATION_ERROR_MS = 5000;
export const NOTIFICATION_INFO_MS = 2000;
/** Menus close this long after the mouse leaves. */
export const MENU_CLOSE_DELAY_MS = 2000;

/** Modal widths in pixels. */
export const MODAL_WIDTH_DEFAULT = 388;
export const MODAL_WIDTHS = [388, 408, 430, 525, 527, 530, 540, 760] as const;
export const PRIVACY_DIALOG_WIDTH = 445;
export const AVATAR_SIZE = 36;
/** The layout is wide above this window width. */
export const WIDE_LAYOUT_MIN_WIDTH = 1150;
export const APPS_TABLE_MAX_WIDTH = 650;

/** Verify-e-mail polling, and how long the resend confirmation stays. */
export const EMAIL_VERIFICATION_POLL_MS = 10_000;
export const RESEND_CONFIRMATION_MS = 10_000;

/** Per-app permission values: unset = teachers and students. */
export const APP_PERMISSION_TEACHERS_ONLY = 1;
export const APP_PERMISSION_DISABLED = -1;
/** A stored app permission: absent means teachers and students. */
export type AppPermission = typeof APP_PERMISSION_TEACHERS_ONLY | typeof APP_PERMISSION_DISABLED;

/** Image search: 'pixabay' allows moderated safe images only; unset allows Google. */
export const IMAGE_SEARCH_PIXABAY = 'pixabay';
export const OFFICE365_SCOPE = 'User.Read';

/** Book covers. */
export const COVER_THUMBNAIL_WIDTH = 250;
export const COVER_RETRY_COUNT = 1;
export const COVER_RETRY_DELAY_MS = 2000;
/** @internal */
export const FEATURED_BOOK_COUNT = 9;
/** @internal */
export const SUBJECT_CARD_COUNT = 8;

/** Analytics. */
export const CHART_HISTORY_MONTHS = 18;
export const PIE_CHART_HEIGHT = 300;
export const CHART_HEIGHT = 400;
export const SECONDS_PER_HOUR = 3600;

/** Welcome e-mail: default date is 14 days from now; the certification course takes about an hour. */
export const WELCOME_EMAIL_DEFAULT_DAYS = 14;
export const CERTIFICATION_COURSE_HOURS = 1;

/** Default name of the library a teacher's books move to when switched to a student. */
export const DEFAULT_MY_BOOKS_LIBRARY_NAME = 'My books';

/**
 * Length limits no person reaches and a script does (docs/security.md, "Input limits"): longer input is
 * refused with 400 before anything is stored or sent.
 */
export const INPUT_LIMITS = {
  /** A person's display name. */
  displayNameMax: 100,
  /** An e-mail address (RFC 5321). */
  emailMax: 320,
  /** A password (hashing cost does not depend on it, but nobody types more). */
  passwordMax: 1024,
  /** An avatar image stored as a data: URL or an address. */
  avatarMax: 512 * 1024,
  /** Pixels of an avatar image (width × height): a small file can declare a huge picture that is slow to decode. */
  avatarMaxPixels: 4096 * 4096,
  /** The subject of a teacher e-mail. */
  emailSubjectMax: 200,
  /** The admin's message in a teacher e-mail. */
  emailMessageMax: 10_000,
  /** Members one teacher e-mail goes to. */
  emailMembersMax: 1000,
} as const;

/**
 * How deep organisations nest: depth 0 at the top, so three levels (region → district → school). The database's
 * triggers hold the same limit (migration 0012-organisation-tree).
 */
export const ORGANISATION_TREE_MAX_DEPTH = 2;

/**
 * Request headers the console sends and the server reads (HTTP header names are case-insensitive; Node gives them
 * to the server in lower case). The acting user: the signed-in user's id, checked against the session (spec §7).
 */
export const ACTING_USER_HEADER = 'x-acting-user';
/** A state change's Idempotency-Key: the same key twice does the change once (docs/architecture.md). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The most parameters an LTI 1.1 launch may carry. Platforms send some 30 to 100 (Canvas's full set with every
 * substitution variable is under 200); custom parameters add a few each. Past this a launch is refused as too many,
 * never cut short (which would break its signature and be refused as not signed).
 */
export const LTI_MAX_PARAMETERS = 2000;
/** The largest LTI launch body (bytes): room for LTI_MAX_PARAMETERS parameters of ordinary length. */
export const LTI_MAX_BODY_BYTES = 256 * 1024;
