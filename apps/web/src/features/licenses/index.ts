export { LicensesPage } from './components/licenses-page.js';
