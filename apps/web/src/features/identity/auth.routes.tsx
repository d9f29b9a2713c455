import type { RouteObject } from 'react-router';
import { routePatterns } from '../../config/paths.js';
import { SignInPage } from './components/sign-in-page.js';

const patterns = routePatterns.signIn;

/**
 * Every /sign-in/* route (spec §2 "Sign-in area"); they sit inside the session provider, outside the guard. /sign-in
 * shows at once; the other sign-in screens share one chunk, fetched when the first of them opens.
 */
export const signInRoutes: RouteObject[] = [
  { path: patterns.root, element: <SignInPage /> },
  { path: patterns.office365, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.Office365Page })) },
  { path: patterns.email, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.EmailSignInPage })) },
  { path: patterns.register, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.RegisterPage })) },
  { path: patterns.verifyEmail, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.VerifyEmailPage })) },
  {
    path: patterns.forgottenPassword,
    lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.ForgottenPasswordPage })),
  },
  { path: patterns.twoStep, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.TwoStepPage })) },
  { path: patterns.organisation, lazy: () => import('./sign-in-screens.js').then((m) => ({ Component: m.OrganisationPage })) },
];
