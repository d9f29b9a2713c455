/**
 * zod schemas of the payloads the console and the server share. One file per family
 * (e.g. members.ts, licenses.ts), each re-exported here; `type X = z.infer<typeof xSchema>`.
 */
export * from './common.js';
export * from './console-config.js';
export * from './licenses.js';
export * from './settings.js';
export * from './lti.js';
export * from './analytics.js';
export * from './portfolios.js';
export * from './resources.js';
export * from './teacher-selection.js';
