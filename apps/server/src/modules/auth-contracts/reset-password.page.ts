/** The small server page behind the reset link (the spec's console has no reset screen). */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(product: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(product)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1a1b1e}
label,input,button{display:block;width:100%;box-sizing:border-box}input{margin:.25rem 0 1rem;padding:.5rem;font-size:1rem}
button{padding:.6rem;font-size:1rem;background:#228be6;color:#fff;border:0;border-radius:4px}a{color:#1971c2}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function resetFormPage(product: string, token: string, error?: string): string {
  return page(
    product,
    'Choose a new password',
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/auth/reset-password">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="newPassword">New password</label>
<input id="newPassword" name="newPassword" type="password" minlength="6" required autocomplete="new-password">
<button type="submit">Save password</button>
</form>`,
  );
}

export function resetDonePage(product: string): string {
  return page(product, 'Your password has been changed', '<p><a href="/sign-in/email">Sign in</a> with your new password.</p>');
}

export function resetFailedPage(product: string): string {
  return page(
    product,
    'This link has expired or was already used',
    '<p><a href="/sign-in/forgotten-password">Ask for a new link</a>.</p>',
  );
}
