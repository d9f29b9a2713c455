/** The sign-in area: its routes and the guard of every console route. */
export { signInRoutes } from './auth.routes.js';
export { RequireSession } from './components/require-session.js';
