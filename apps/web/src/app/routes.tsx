import { Navigate, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/ui/full-page-loader.js';
import { routePatterns } from '../config/paths.js';
import { RequireSession, signInRoutes } from '../features/identity/index.js';
import { ConsoleRoot } from './console-root.js';
import { HomeRedirect } from './guards/home-redirect.js';
import { RequireFeature } from './guards/require-feature.js';
import { RouteError } from './route-error.js';

const screens = routePatterns.orgScreens;

// Only a browser the console does not support is sent to /unsupported: its page is not in the first download.
const unsupported = () => import('../features/unsupported/index.js').then((m) => ({ Component: m.UnsupportedPage }));
// The signed-in layout (navigation, user menu) is its own chunk: /sign-in does not load it.
const orgScope = () => import('./guards/org-scope.js').then((m) => ({ Component: m.OrgScope }));
// Each screen family is its own chunk, fetched the first time it is opened.
const licenses = () => import('../features/licenses/index.js').then((m) => ({ Component: m.LicensesPage }));
// The Teachers screen comes with the teacher-libraries dialogs (app/teachers-screen.tsx).
const teachers = () => import('./teachers-screen.js').then((m) => ({ Component: m.TeachersScreen }));
const analytics = () => import('../features/analytics/index.js').then((m) => ({ Component: m.AnalyticsPage }));
const portfolios = () => import('../features/portfolios/index.js').then((m) => ({ Component: m.PortfoliosPage }));
const resources = () => import('../features/resources/index.js').then((m) => ({ Component: m.ResourcesPage }));
const admins = () => import('../features/admins/index.js').then((m) => ({ Component: m.AdminsPage }));
const lms = () => import('../features/lti/index.js').then((m) => ({ Component: m.LmsPage }));
const provisioning = () => import('../features/scim/index.js').then((m) => ({ Component: m.ProvisioningPage }));
const rostering = () => import('../features/rostering/index.js').then((m) => ({ Component: m.RosteringPage }));
const apps = () => import('../features/apps/index.js').then((m) => ({ Component: m.AppsPage }));
const audit = () => import('../features/audit/index.js').then((m) => ({ Component: m.AuditLogPage }));
// 2-step verification: the person's own page, outside any organisation (an admin who must enrol has none yet).
const security = () => import('../features/two-step/index.js').then((m) => ({ Component: m.SecurityPage }));
const securitySettings = () => import('../features/two-step/index.js').then((m) => ({ Component: m.SecuritySettingsPage }));
const imageSearch = () => import('../features/image-search/index.js').then((m) => ({ Component: m.ImageSearchPage }));

/** The console's screens under /{orgId} (spec §2); a screen that fails keeps the navigation. */
const orgScreenRoutes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: licenses },
      { path: screens.teachers, lazy: teachers },
      { path: screens.analytics, lazy: analytics },
      {
        element: <RequireFeature feature="studentPortfolios" />,
        children: [{ path: screens.portfolios, lazy: portfolios }],
      },
      { path: screens.resources, lazy: resources },
      { path: screens.admin, lazy: admins },
      { path: screens.lms, lazy: lms },
      { path: screens.provisioning, lazy: provisioning },
      { path: screens.rostering, lazy: rostering },
      { path: screens.apps, lazy: apps },
      { path: screens.imageSearch, lazy: imageSearch },
      { path: screens.audit, lazy: audit },
      { path: screens.security, lazy: securitySettings },
    ],
  },
];

/**
 * Every route of the console. /unsupported stands alone; everything else loads the console
 * configuration and the session first; the sign-in area is open, the rest needs a session.
 * Any other path goes to '/', which opens the current organisation's home.
 */
export const routes: RouteObject[] = [
  { path: routePatterns.unsupported, lazy: unsupported },
  {
    element: <ConsoleRoot />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      ...signInRoutes,
      { path: routePatterns.account.security, lazy: security, errorElement: <RouteError /> },
      {
        element: <RequireSession />,
        children: [
          { index: true, element: <HomeRedirect /> },
          { path: routePatterns.org, lazy: orgScope, children: orgScreenRoutes },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
