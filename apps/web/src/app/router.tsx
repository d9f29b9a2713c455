import { createBrowserRouter } from 'react-router';
import { routes } from './routes.js';

/** The browser router over every console route. */
export function createConsoleRouter() {
  return createBrowserRouter(routes);
}
