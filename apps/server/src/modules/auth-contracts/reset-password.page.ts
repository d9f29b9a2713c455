import { PASSWORD_MIN_LENGTH } from '@quire/core';

/**
 * The page behind the reset link (the spec's console has no reset screen): served by the server, so it works
 * before the console loads, and drawn in the console's sign-in frame — the product's mark and name, a card with
 * the screen's title, the console's blue (#2266b8 on white, 6.5:1) and focus ring — at every width from 320 px.
 */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The console's mark (apps/web/public/favicon.svg), inline so the page needs nothing else. */
const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="6" fill="#1a4f8b"/><path d="M9 8h10a5 5 0 0 1 5 5v11H14a5 5 0 0 1-5-5z" fill="#fff"/></svg>';

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1a1b1e;background:#f1f3f5;line-height:1.55}
main{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem}
.card{width:100%;max-width:440px;background:#fff;border:1px solid #dee2e6;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08),0 1px 2px rgba(0,0,0,.06);padding:2rem}
.brand{display:flex;align-items:center;gap:.6rem;font-weight:700;font-size:1.125rem;margin:0 0 1rem}
h1{font-size:1.625rem;line-height:1.3;margin:0 0 1rem}
p{margin:0 0 1rem}
label{display:block;font-weight:500;font-size:.875rem;margin-bottom:.25rem}
.hint{display:block;color:#495057;font-size:.8125rem;margin:-.75rem 0 1rem}
input{display:block;width:100%;font:inherit;font-size:1rem;padding:.5rem .75rem;margin:0 0 1rem;border:1px solid #868e96;border-radius:4px;color:#1a1b1e;background:#fff}
input:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid #2266b8;outline-offset:2px}
button{display:block;width:100%;font:inherit;font-weight:600;padding:.6rem 1rem;color:#fff;background:#2266b8;border:0;border-radius:4px;cursor:pointer}
button:hover{background:#1c5aa6}
a{color:#2266b8}
.alert{padding:.75rem 1rem;border-radius:4px;background:#fff5f5;border:1px solid #c92a2a;color:#a51d1d}
.actions{margin-top:1rem;text-align:center;font-size:.875rem}
`;

function page(product: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(product)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style></head>
<body><main><div class="card">
<p class="brand">${MARK}<span>${escapeHtml(product)}</span></p>
<h1>${escapeHtml(title)}</h1>
${body}
</div></main></body></html>`;
}

export function resetFormPage(product: string, token: string, error?: string): string {
  return page(
    product,
    'Choose a new password',
    `${error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/auth/reset-password">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="newPassword">New password</label>
<input id="newPassword" name="newPassword" type="password" minlength="${PASSWORD_MIN_LENGTH}" required autocomplete="new-password" aria-describedby="password-hint" autofocus>
<span class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</span>
<button type="submit">Save password</button>
</form>
<p class="actions"><a href="/sign-in">Back to sign in</a></p>`,
  );
}

export function resetDonePage(product: string): string {
  return page(product, 'Your password has been changed', '<p><a href="/sign-in/email">Sign in</a> with your new password.</p>');
}

export function resetFailedPage(product: string): string {
  return page(
    product,
    'This link has expired or was already used',
    '<p>Reset links work once and for one hour.</p><p><a href="/sign-in/forgotten-password">Ask for a new link</a>.</p>',
  );
}
