/** The sign-in area's screens other than /sign-in itself: one chunk, fetched when one of them opens. */
import '../../styles/complete.js';

export { EmailSignInPage } from './components/email-sign-in-page.js';
export { ForgottenPasswordPage } from './components/forgotten-password-page.js';
export { Office365Page } from './components/office-365-page.js';
export { OrganisationPage } from './components/organisation-page.js';
export { RegisterPage } from './components/register-page.js';
export { VerifyEmailPage } from './components/verify-email-page.js';
export { TwoStepPage } from './components/two-step-page.js';
