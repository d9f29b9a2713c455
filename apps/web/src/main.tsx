import './styles/initial.js';
// Before any schema parses (lib/zod-config.ts says why).
import './lib/zod-config.js';

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { paths } from './config/paths.js';
import { unsupportedRedirect } from './lib/browser-support.js';
import { startEarlyRequests } from './app/early-requests.js';
import { createQueryClient } from './lib/query-client.js';
import { App } from './app/app.js';

// Unsupported browsers go to /unsupported before anything else renders (spec §2).
const redirect = unsupportedRedirect(window.location.pathname, navigator.userAgent, paths.unsupported);
if (redirect) window.history.replaceState(null, '', redirect);

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');

const queryClient = createQueryClient();
if (!redirect) startEarlyRequests(queryClient, window.location.pathname);

const root = createRoot(container);
startTransition(() =>
  root.render(
    <StrictMode>
      <App queryClient={queryClient} />
    </StrictMode>,
  ),
);
