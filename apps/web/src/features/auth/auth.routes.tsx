import type { RouteObject } from 'react-router';
import { routePatterns } from '../../config/paths.js';
import { SignInPage } from './components/sign-in-page.js';
import type * as SignInScreens from './sign-in-screens.js';

const patterns = routePatterns.signIn;

/** /sign-in shows at once; the other sign-in screens share one chunk, fetched when the first of them opens. */
const screen = (name: keyof typeof SignInScreens) => () => import('./sign-in-screens.js').then((m) => ({ Component: m[name] }));

/** Every /sign-in/* route (spec §2 "Sign-in area"); they sit inside the session provider, outside the guard. */
export const signInRoutes: RouteObject[] = [
  { path: patterns.root, element: <SignInPage /> },
  { path: patterns.office365, lazy: screen('Office365Page') },
  { path: patterns.email, lazy: screen('EmailSignInPage') },
  { path: patterns.register, lazy: screen('RegisterPage') },
  { path: patterns.verifyEmail, lazy: screen('VerifyEmailPage') },
  { path: patterns.forgottenPassword, lazy: screen('ForgottenPasswordPage') },
  { path: patterns.organisation, lazy: screen('OrganisationPage') },
];
