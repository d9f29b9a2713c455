export { PortfoliosPage } from './components/portfolios-page.js';
