export { UnsupportedPage } from './components/unsupported-page.js';
