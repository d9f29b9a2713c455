/** The paging controls are shared with the Admin screen: they live in components/ui. */
export { TablePaging, type TablePagingProps } from '../../../components/ui/table-paging.js';
