export { UPGRADE_BROWSERS, UnsupportedPage } from './components/unsupported-page.js';
