export { TeachersPage } from './components/teachers-page.js';
