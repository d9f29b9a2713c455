import type { RouteObject } from 'react-router';
import { routePatterns } from '../../config/paths.js';
import { EmailSignInPage } from './components/email-sign-in-page.js';
import { ForgottenPasswordPage } from './components/forgotten-password-page.js';
import { Office365Page } from './components/office-365-page.js';
import { OrganisationPage } from './components/organisation-page.js';
import { RegisterPage } from './components/register-page.js';
import { SignInPage } from './components/sign-in-page.js';
import { VerifyEmailPage } from './components/verify-email-page.js';

const patterns = routePatterns.signIn;

/** Every /sign-in/* route (spec §2 "Sign-in area"); they sit inside the session provider, outside the guard. */
export const signInRoutes: RouteObject[] = [
  { path: patterns.root, element: <SignInPage /> },
  { path: patterns.office365, element: <Office365Page /> },
  { path: patterns.email, element: <EmailSignInPage /> },
  { path: patterns.register, element: <RegisterPage /> },
  { path: patterns.verifyEmail, element: <VerifyEmailPage /> },
  { path: patterns.forgottenPassword, element: <ForgottenPasswordPage /> },
  { path: patterns.organisation, element: <OrganisationPage /> },
];
