import { createHash } from 'node:crypto';

/** The plain HTML pages of LTI: a refused launch, the deep linking picker and answer; and the 1.1 cartridge. */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1b1e; background: #f8f9fa; margin: 0; }
  main { max-width: 36rem; margin: 10vh auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  p { line-height: 1.5; }
  a.action, button { display: inline-block; padding: .6rem 1rem; background: #1864ab; color: #fff; border: 0; border-radius: 4px; text-decoration: none; font: inherit; font-weight: 600; cursor: pointer; }
  a.action:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #1a1b1e; outline-offset: 2px; }
  fieldset { border: 0; margin: 0 0 1rem; padding: 0; }
  legend { font-weight: 600; margin-bottom: .5rem; padding: 0; }
  .choice { display: flex; align-items: center; gap: .5rem; padding: .35rem 0; }
  .choice input { width: 1.25rem; height: 1.25rem; margin: 0; }
  .field { margin: 0 0 1.25rem; }
  .field label { display: block; font-weight: 600; }
  .hint { color: #495057; margin: .25rem 0 .4rem; }
  input[type="text"] { box-sizing: border-box; width: 100%; max-width: 24rem; padding: .5rem; font: inherit; border: 1px solid #868e96; border-radius: 4px; }
  input[aria-invalid="true"] { border-color: #c92a2a; }
  .error { color: #c92a2a; font-weight: 600; margin: .4rem 0 0; }
  @media (max-width: 30rem) { main { margin: 0; border-radius: 0; box-shadow: none; padding: 1.25rem; } }
`;

/** A whole page: the LTI pages are shown outside the console (in the platform's frame or window), so they stand alone. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * The page of a refused launch. `action`, when given, is a link the person can follow (the LTI 1.3 login again, in a
 * new window, where the browser keeps the tool's cookie).
 */
export function launchErrorPage(productName: string, message: string, action?: { href: string; label: string }): string {
  const product = escapeHtml(productName);
  const next = action
    ? `<p><a class="action" href="${escapeHtml(action.href)}" target="_blank" rel="opener">${escapeHtml(action.label)}</a></p>`
    : '<p>Go back to your learning platform and open the link again. If this keeps happening, contact your administrator.</p>';
  return page(`${product} could not be opened`, `<h1>${product} could not be opened</h1>
<p role="alert">${escapeHtml(message)}</p>
${next}`);
}

/**
 * The deep linking picker (docs/lti.md "Deep Linking 2.0"): what the course's link opens, the product's home page or a
 * book by id, posted with the signed context to `action`. Plain HTML, no script: a radio group named by its legend,
 * every control labelled; a refused book id comes back with the choice kept, the field marked invalid, described by the
 * message and focused.
 */
export function deepLinkPickerPage(input: {
  productName: string;
  action: string;
  context: string;
  choice?: { target?: string; bookId?: string };
  error?: string;
}): string {
  const product = escapeHtml(input.productName);
  const book = input.choice?.target === 'book';
  const invalid = input.error !== undefined;
  const describedBy = invalid ? 'book-id-hint book-id-error' : 'book-id-hint';
  return page(`Add ${product} to your course`, `<h1>Add ${product} to your course</h1>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="context" value="${escapeHtml(input.context)}">
<fieldset role="radiogroup" aria-labelledby="target-legend">
<legend id="target-legend">What should this link open?</legend>
<div class="choice"><input type="radio" id="target-home" name="target" value="home"${book ? '' : ' checked'}>
<label for="target-home">The ${product} home page</label></div>
<div class="choice"><input type="radio" id="target-book" name="target" value="book"${book ? ' checked' : ''}>
<label for="target-book">A book</label></div>
</fieldset>
<div class="field">
<label for="book-id">Book id</label>
<p id="book-id-hint" class="hint">For a book only: the id of the book in ${product}.</p>
<input type="text" id="book-id" name="bookId" value="${escapeHtml(input.choice?.bookId ?? '')}" maxlength="200" autocomplete="off" spellcheck="false" aria-describedby="${describedBy}"${invalid ? ' aria-invalid="true" autofocus' : ''}>
${invalid ? `<p id="book-id-error" class="error">${escapeHtml(input.error ?? '')}</p>` : ''}
</div>
<button type="submit">Add the link</button>
</form>`);
}

/** The one script of the deep linking answer: it posts the form at once. Allowed by its hash, nothing else is. */
const AUTO_SUBMIT = "document.getElementById('deep-link-response').submit();";
/** The Content-Security-Policy source of AUTO_SUBMIT. */
export const AUTO_SUBMIT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(AUTO_SUBMIT).digest('base64')}'`;

/**
 * The deep linking answer: a form posting the signed LtiDeepLinkingResponse (`JWT`) to the platform's return URL,
 * submitted by the script at once, and by its button where scripts do not run.
 */
export function deepLinkResponsePage(productName: string, returnUrl: string, jwt: string): string {
  return page(`${escapeHtml(productName)}: returning to your learning platform`, `<h1>Returning to your learning platform…</h1>
<p>Your link is ready. If your learning platform does not open by itself, continue with the button.</p>
<form id="deep-link-response" method="post" action="${escapeHtml(returnUrl)}">
<input type="hidden" name="JWT" value="${escapeHtml(jwt)}">
<button type="submit">Continue to your learning platform</button>
</form>
<script>${AUTO_SUBMIT}</script>`);
}

/**
 * The one script of the platform storage pages (LTI Client Side postMessage, docs/lti.md): it reads what to do from
 * the page's JSON block, asks the platform's frame for its capabilities, then keeps (`put`) or reads back (`get`) the
 * login's state and nonce there. Every message goes to the platform's OIDC authorisation origin only, and only
 * answers from that origin carrying the message id just sent (random) count. Without every answer in time, the page
 * offers the login again in a new window. Constant text, allowed by its hash: nothing of a request is ever in it.
 */
const PLATFORM_STORAGE = `(function () {
  var config = JSON.parse(document.getElementById('lti-storage').textContent);
  var finished = false;
  function giveUp() {
    if (finished) return;
    finished = true;
    document.getElementById('lti-storage-wait').hidden = true;
    document.getElementById('lti-storage-failed').hidden = false;
  }
  setTimeout(giveUp, config.timeoutMs);
  function frameNamed(name) {
    try {
      return name === '_parent' ? window.parent : window.parent.frames[name];
    } catch (e) {
      return null;
    }
  }
  var target = frameNamed(config.target);
  if (!target || target === window) return giveUp();
  var waiting = {};
  function send(message, onAnswer) {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    var id = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join('');
    message.message_id = id;
    waiting[id] = { subject: message.subject + '.response', onAnswer: onAnswer };
    target.postMessage(message, config.origin);
  }
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (finished || event.origin !== config.origin || !data || typeof data !== 'object' || typeof data.message_id !== 'string') return;
    var pending = Object.prototype.hasOwnProperty.call(waiting, data.message_id) ? waiting[data.message_id] : null;
    if (!pending || data.subject !== pending.subject) return;
    delete waiting[data.message_id];
    pending.onAnswer(data);
  });
  var subject = 'lti.put_data';
  var readSubject = 'lti.get_data';
  function storeOrRead() {
    var left = config.items.length;
    var values = {};
    config.items.forEach(function (item) {
      var message = config.mode === 'put' ? { subject: subject, key: item.key, value: item.value } : { subject: readSubject, key: item.key };
      send(message, function (answer) {
        if (answer.error || (answer.key !== undefined && answer.key !== item.key) || (config.mode === 'get' && typeof answer.value !== 'string')) return giveUp();
        values[item.field || item.key] = answer.value;
        left -= 1;
        if (left === 0) finish(values);
      });
    });
  }
  function finish(values) {
    finished = true;
    if (config.mode === 'put') return window.location.replace(config.next);
    var form = document.getElementById('lti-storage-launch');
    Object.keys(values).forEach(function (name) { form.elements[name].value = values[name]; });
    form.submit();
  }
  send({ subject: 'lti.capabilities' }, function (answer) {
    if (answer.error) return storeOrRead();
    var supported = Array.isArray(answer.supported_messages) ? answer.supported_messages : [];
    var put = null;
    var get = null;
    supported.forEach(function (m) {
      if (m && (m.subject === 'lti.put_data' || m.subject === 'org.imsglobal.lti.put_data')) put = m;
      if (m && (m.subject === 'lti.get_data' || m.subject === 'org.imsglobal.lti.get_data')) get = m;
    });
    var needed = config.mode === 'put' ? put : get;
    if (!needed) return giveUp();
    subject = put ? put.subject : subject;
    readSubject = get ? get.subject : readSubject;
    if (typeof needed.frame === 'string' && needed.frame !== '') {
      target = frameNamed(needed.frame);
      if (!target || target === window) return giveUp();
    }
    storeOrRead();
  });
})();`;
/** The Content-Security-Policy source of PLATFORM_STORAGE. */
export const PLATFORM_STORAGE_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(PLATFORM_STORAGE).digest('base64')}'`;
/** How long the platform has to answer every storage message. */
const PLATFORM_STORAGE_TIMEOUT_MS = 5000;

/** JSON for a `<script type="application/json">` block: nothing in it can close the element. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function storagePage(productName: string, title: string, config: object, retryUrl: string, extra = ''): string {
  const product = escapeHtml(productName);
  return page(`${product}: ${escapeHtml(title)}`, `<h1>Opening ${product}…</h1>
<div id="lti-storage-wait"><p role="status">${escapeHtml(title)}</p></div>
<div id="lti-storage-failed" hidden>
<p role="alert">Your learning platform did not answer in time, so ${product} cannot open inside it. Open ${product} in a new window to continue.</p>
<p><a class="action" href="${escapeHtml(retryUrl)}" target="_blank" rel="opener">Open ${product} in a new window</a></p>
</div>
<noscript><p>${product} needs JavaScript to open inside your learning platform. <a href="${escapeHtml(retryUrl)}" target="_blank" rel="opener">Open ${product} in a new window</a>.</p></noscript>
${extra}<script type="application/json" id="lti-storage">${jsonBlock({ ...config, timeoutMs: PLATFORM_STORAGE_TIMEOUT_MS })}</script>
<script>${PLATFORM_STORAGE}</script>`);
}

/**
 * The login's page when the platform offers its storage (`lti_storage_target`): it keeps the state's signature and
 * the nonce there, then goes on to the platform's authorisation endpoint (`next`).
 */
export function platformStorageLoginPage(
  productName: string,
  input: { target: string; origin: string; stateKey: string; stateValue: string; nonceKey: string; nonce: string; next: string; retryUrl: string },
): string {
  const items = [
    { key: input.stateKey, value: input.stateValue },
    { key: input.nonceKey, value: input.nonce },
  ];
  return storagePage(productName, 'Signing you in through your learning platform…', { mode: 'put', target: input.target, origin: input.origin, items, next: input.next }, input.retryUrl);
}

/**
 * The launch's page when the login kept its state in the platform's storage and the browser sent no cookie: it reads
 * the state and nonce back, then posts them with the platform's id_token and state to `action` (the tool's own origin).
 */
export function platformStorageLaunchPage(
  productName: string,
  input: { target: string; origin: string; stateKey: string; nonceKey: string; idToken: string; state: string; action: string; retryUrl: string },
): string {
  const items = [
    { key: input.stateKey, field: 'stored_state' },
    { key: input.nonceKey, field: 'stored_nonce' },
  ];
  const form = `<form id="lti-storage-launch" method="post" action="${escapeHtml(input.action)}" hidden>
<input type="hidden" name="id_token" value="${escapeHtml(input.idToken)}">
<input type="hidden" name="state" value="${escapeHtml(input.state)}">
<input type="hidden" name="stored_state" value="">
<input type="hidden" name="stored_nonce" value="">
</form>
`;
  return storagePage(productName, 'Checking this launch with your learning platform…', { mode: 'get', target: input.target, origin: input.origin, items }, input.retryUrl, form);
}

/**
 * The registration page's first look (LTI Dynamic Registration): which platform asks, and the admin's confirmation,
 * posted back to `action` with the address and the platform's parameters. No script.
 */
export function registrationConfirmPage(
  productName: string,
  input: { action: string; name: string; issuer: string; token: string; openidConfiguration: string; registrationToken: string | undefined },
): string {
  const product = escapeHtml(productName);
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return page(`Register ${product}`, `<h1>Register ${product} with your learning platform</h1>
<p><strong>${escapeHtml(input.name)}</strong> (issuer <code>${escapeHtml(input.issuer)}</code>) asks to add ${product}.</p>
<p>Registering adds this platform to your organisation's learning platforms in ${product}, so teachers and students can open ${product} from their courses.</p>
<form method="post" action="${escapeHtml(input.action)}">
${hidden('t', input.token)}
${hidden('openid_configuration', input.openidConfiguration)}
${input.registrationToken !== undefined ? hidden('registration_token', input.registrationToken) : ''}
<button type="submit">Register ${product}</button>
</form>`);
}

/** The one script of the registration's last page: it tells the platform the registration is over. */
const REGISTRATION_CLOSE = "(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');";
/** The Content-Security-Policy source of REGISTRATION_CLOSE. */
export const REGISTRATION_CLOSE_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(REGISTRATION_CLOSE).digest('base64')}'`;

/** The registration done: what was stored, and the close message to the platform (Dynamic Registration §3.7). */
export function registrationDonePage(productName: string, input: { name: string; clientId: string; deploymentId: string }): string {
  const product = escapeHtml(productName);
  return page(`${product} is registered`, `<h1>${product} is registered</h1>
<p role="status">${escapeHtml(input.name)} is now a learning platform of your organisation in ${product} (client ID <code>${escapeHtml(input.clientId)}</code>, deployment ID <code>${escapeHtml(input.deploymentId)}</code>). You can close this window.</p>
<script>${REGISTRATION_CLOSE}</script>`);
}

/** A registration that cannot go on: why, and what to do. */
export function registrationErrorPage(productName: string, message: string): string {
  const product = escapeHtml(productName);
  return page(`${product} could not be registered`, `<h1>${product} could not be registered</h1>
<p role="alert">${escapeHtml(message)}</p>
<p>Get a new registration address on ${product}'s LMS Integration page and try again, or add the platform by hand there.</p>`);
}

/** The LTI 1.1 cartridge (cartridge_basiclti_link) a platform can be configured from by URL. */
export function cartridgeXml(input: { productName: string; launchUrl: string; domain: string }): string {
  const title = escapeHtml(input.productName);
  const launch = escapeHtml(input.launchUrl);
  const secure = input.launchUrl.startsWith('https:') ? `\n  <blti:secure_launch_url>${launch}</blti:secure_launch_url>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<cartridge_basiclti_link xmlns="http://www.imsglobal.org/xsd/imslticc_v1p0"
    xmlns:blti="http://www.imsglobal.org/xsd/imsbasiclti_v1p0"
    xmlns:lticm="http://www.imsglobal.org/xsd/imslticm_v1p0"
    xmlns:lticp="http://www.imsglobal.org/xsd/imslticp_v1p0"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsglobal.org/xsd/imslticc_v1p0 http://www.imsglobal.org/xsd/lti/ltiv1p0/imslticc_v1p0.xsd http://www.imsglobal.org/xsd/imsbasiclti_v1p0 http://www.imsglobal.org/xsd/lti/ltiv1p0/imsbasiclti_v1p0p1.xsd http://www.imsglobal.org/xsd/imslticm_v1p0 http://www.imsglobal.org/xsd/lti/ltiv1p0/imslticm_v1p0.xsd http://www.imsglobal.org/xsd/imslticp_v1p0 http://www.imsglobal.org/xsd/lti/ltiv1p0/imslticp_v1p0.xsd">
  <blti:title>${title}</blti:title>
  <blti:description>Create and read books with ${title}. Teachers and students launching from this learning platform need no account or sign-in.</blti:description>
  <blti:launch_url>${launch}</blti:launch_url>${secure}
  <blti:extensions platform="canvas.instructure.com">
    <lticm:property name="tool_id">quire</lticm:property>
    <lticm:property name="privacy_level">public</lticm:property>
    <lticm:property name="domain">${escapeHtml(input.domain)}</lticm:property>
    <lticm:property name="text">${title}</lticm:property>
    <lticm:options name="course_navigation">
      <lticm:property name="enabled">true</lticm:property>
      <lticm:property name="url">${launch}</lticm:property>
      <lticm:property name="text">${title}</lticm:property>
      <lticm:property name="windowTarget">_blank</lticm:property>
    </lticm:options>
  </blti:extensions>
  <blti:extensions platform="moodle">
    <lticm:property name="privacy_level">public</lticm:property>
  </blti:extensions>
  <cartridge_bundle identifierref="BLTI001_Bundle"/>
  <cartridge_icon identifierref="BLTI001_Icon"/>
</cartridge_basiclti_link>
`;
}
