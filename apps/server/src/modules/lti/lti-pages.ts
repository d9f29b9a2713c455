/** The plain HTML a person sees when a launch is refused and the platform gave no return URL. */

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${product} could not be opened</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1b1e; background: #f8f9fa; margin: 0; }
  main { max-width: 36rem; margin: 10vh auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  p { line-height: 1.5; }
  a.action { display: inline-block; padding: .6rem 1rem; background: #1864ab; color: #fff; border-radius: 4px; text-decoration: none; font-weight: 600; }
  a.action:focus-visible { outline: 3px solid #1a1b1e; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>${product} could not be opened</h1>
<p role="alert">${escapeHtml(message)}</p>
${next}
</main>
</body>
</html>
`;
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
