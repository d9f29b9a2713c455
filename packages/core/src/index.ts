/** @quire/core: the pure rules shared by the console and the server. Dependency-free except zod. */
export * from './constants.js';
export * from './messages.js';
export * from './error-codes.js';
export * from './email.js';
export * from './licenses.js';
export * from './import-licenses.js';
export * from './roles.js';
export * from './format.js';
export * from './csv.js';
export * from './organisation.js';
export * from './visits.js';
export * from './welcome-email.js';
export * from './schemas/index.js';
export * from './contracts.js';
export * from './contract-check.js';
export * from './app-catalogue.js';
export * from './sign-in-providers.js';
