import { Pagination, useTranslate, type PaginationProps } from 'react-admin';
import { ALL_PAGE_SIZE } from '../data/dataProvider';

/** Spec §9: table page sizes 10, 25, 50, 100 and all (-1, as MUI's convention for "All"). */
export const TABLE_PAGE_SIZES = [10, 25, 50, 100, -1] as const;

/**
 * react-admin Pagination with the spec's page sizes. "All" is offered with a large page size
 * rather than -1, because react-admin computes page counts from perPage.
 */
export function ConsolePagination(props: PaginationProps) {
  const translate = useTranslate();
  const options = TABLE_PAGE_SIZES.map((size) => (size === -1 ? { label: translate('core.table.all'), value: ALL_PAGE_SIZE } : size));
  return <Pagination rowsPerPageOptions={options} {...props} />;
}
