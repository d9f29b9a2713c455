/**
 * zod schemas of every payload the console and the server exchange: one file per family, each re-exported
 * here; `type X = z.infer<typeof xSchema>`. The server uses them as its routes' request and `response`
 * schemas (so /docs documents every answer), the console parses every answer with them, and the end-to-end
 * helpers take their types from them.
 */
export * from './common.js';
export * from './errors.js';
export * from './health.js';
export * from './console-config.js';
export * from './auth.js';
export * from './sign-in-methods.js';
export * from './identity.js';
export * from './identity-session.js';
export * from './organisations.js';
export * from './licenses.js';
export * from './members.js';
export * from './libraries.js';
export * from './admins.js';
export * from './teacher-mail.js';
export * from './settings.js';
export * from './lti.js';
export * from './scim.js';
export * from './rostering.js';
export * from './analytics.js';
export * from './portfolios.js';
export * from './resources.js';
export * from './teacher-selection.js';
export * from './route-preloads.js';
export * from './audit.js';
export * from './two-step.js';
