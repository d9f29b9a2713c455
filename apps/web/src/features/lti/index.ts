export { LmsPage } from './components/lms-page.js';
