/** 2-step verification: the person's Security page and the organisation's Security settings. */
export { SecurityPage } from './components/security-page.js';
