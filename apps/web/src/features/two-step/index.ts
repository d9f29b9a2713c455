/** 2-step verification: the person's Security page and the organisation's Security settings. */
export { SecurityPage } from './components/security-page.js';
export { SecuritySettingsPage } from './components/security-settings-page.js';
