export { ImageSearchPage } from './components/image-search-page.js';
