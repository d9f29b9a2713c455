export { ProvisioningPage } from './components/provisioning-page.js';
