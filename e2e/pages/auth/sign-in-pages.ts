import { expect, type Locator, type Page } from '@playwright/test';
import { BasePage } from '../base-page.js';

/** The sign-in area's screens (spec §2 "Sign-in area"), in the words a user sees. */

/** The error banner of a sign-in form. */
function formError(page: Page): Locator {
  return page.getByRole('alert');
}

/** /sign-in: the choice of Google, Office 365 or e-mail. */
export class SignInPage extends BasePage {
  readonly path = '/sign-in';

  protected override readonly readyHeading = 'Sign in';

  googleButton(): Locator {
    return this.page.getByRole('button', { name: 'Sign in with Google' });
  }

  office365Button(): Locator {
    return this.page.getByRole('button', { name: 'Sign in with Office 365' });
  }

  emailLink(): Locator {
    return this.page.getByRole('link', { name: 'Sign in with email' });
  }

  termsLine(): Locator {
    return this.page.getByText(/you agree to our Terms of Service/);
  }

  error(): Locator {
    return formError(this.page);
  }
}

/** /sign-in/email[/:email]: the two-step e-mail sign-in. */
export class EmailSignInPage extends BasePage {
  path = '/sign-in/email';

  protected override readonly readyHeading = 'Sign in with email';

  emailInput(): Locator {
    return this.page.getByRole('textbox', { name: /^Email/ });
  }

  passwordInput(): Locator {
    return this.page.getByRole('textbox', { name: /^Password/ });
  }

  nextButton(): Locator {
    return this.page.getByRole('button', { name: 'Next' });
  }

  signInButton(): Locator {
    return this.page.getByRole('button', { name: 'Sign in', exact: true });
  }

  forgottenPasswordLink(): Locator {
    return this.page.getByRole('link', { name: 'Forgotten password?' });
  }

  error(): Locator {
    return formError(this.page);
  }

  /** Both steps: the e-mail, 'Next', the password, 'Sign in'. */
  async signIn(email: string, password: string): Promise<void> {
    await this.emailInput().fill(email);
    await this.nextButton().click();
    await expect(this.passwordInput()).toBeVisible();
    await this.passwordInput().fill(password);
    await this.signInButton().click();
  }
}

/** /sign-in/register[/:email]: 'Create account'. */
export class RegisterPage extends BasePage {
  path = '/sign-in/register';

  protected override readonly readyHeading = 'Create account';

  async fill(values: { email?: string; firstName: string; lastName: string; password: string }): Promise<void> {
    if (values.email !== undefined) await this.page.getByRole('textbox', { name: /^Email/ }).fill(values.email);
    await this.page.getByRole('textbox', { name: /^First name/ }).fill(values.firstName);
    await this.page.getByRole('textbox', { name: /^Last name/ }).fill(values.lastName);
    await this.page.getByRole('textbox', { name: /^Password/ }).fill(values.password);
  }

  createAccountButton(): Locator {
    return this.page.getByRole('button', { name: 'Create account' });
  }

  error(): Locator {
    return formError(this.page);
  }
}

/** /sign-in/verify-email: 'Verify your email'. */
export class VerifyEmailPage extends BasePage {
  readonly path = '/sign-in/verify-email';

  protected override readonly readyHeading = 'Verify your email';

  resendButton(): Locator {
    return this.page.getByRole('button', { name: 'Resend email' });
  }

  resendConfirmation(): Locator {
    return this.page.getByText('We have sent you another email.');
  }

  backButton(): Locator {
    return this.page.getByRole('button', { name: 'Back' });
  }

  error(): Locator {
    return formError(this.page);
  }
}

/** /sign-in/forgotten-password[/:email]: 'Recover password'. */
export class ForgottenPasswordPage extends BasePage {
  path = '/sign-in/forgotten-password';

  protected override readonly readyHeading = 'Recover password';

  emailInput(): Locator {
    return this.page.getByRole('textbox', { name: /^Email/ });
  }

  sendButton(): Locator {
    return this.page.getByRole('button', { name: 'Send' });
  }

  confirmation(): Locator {
    return this.page.getByRole('status').filter({ hasText: 'reset your password' });
  }

  signInButton(): Locator {
    return this.page.getByRole('link', { name: 'Sign in' });
  }
}

/** /sign-in/organisation: 'Select Organization'. */
export class OrganisationPickerPage extends BasePage {
  readonly path = '/sign-in/organisation';

  protected override readonly readyHeading = 'Select Organization';

  select(): Locator {
    return this.page.getByRole('combobox', { name: 'Organization' });
  }

  submitButton(): Locator {
    return this.page.getByRole('button', { name: 'Submit' });
  }

  /** Types part of the name and picks the organisation from the searchable list. */
  async choose(name: string): Promise<void> {
    await this.select().click();
    await this.select().fill(name.slice(0, 4));
    await this.page.getByRole('option', { name }).click();
  }
}

/** /sign-in/office-365: progress and failure of the Microsoft pop-up sign-in. */
export class Office365Page extends BasePage {
  readonly path = '/sign-in/office-365';

  protected override readonly readyHeading = 'Sign in with Office 365';

  error(): Locator {
    return formError(this.page);
  }

  cancelButton(): Locator {
    return this.page.getByRole('button', { name: 'Cancel' });
  }

  tryAgainButton(): Locator {
    return this.page.getByRole('button', { name: 'Try again' });
  }
}
