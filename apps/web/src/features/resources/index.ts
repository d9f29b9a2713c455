export { ResourcesPage } from './components/resources-page.js';
