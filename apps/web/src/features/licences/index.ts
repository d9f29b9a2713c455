export { LicencesPage } from './components/licences-page.js';
