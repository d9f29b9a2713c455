export { AdminsPage } from './components/admins-page.js';
