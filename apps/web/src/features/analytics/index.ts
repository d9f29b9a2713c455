export { AnalyticsPage } from './components/analytics-page.js';
