export { RosteringPage } from './components/rostering-page.js';
