import { Group, Pagination, Select, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type PageSize } from '@quire/core';

export interface TablePagingProps {
  total: number;
  page: number;
  pageSize: PageSize;
  onPage: (page: number) => void;
  onPageSize: (size: PageSize) => void;
}

/**
 * Paging of the console's server-paged tables (Teachers, Admin): controls show only when there are
 * more rows than the default page size (spec §9).
 */
export function TablePaging({ total, page, pageSize, onPage, onPageSize }: TablePagingProps) {
  if (total <= DEFAULT_PAGE_SIZE) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="md" wrap="wrap">
      <Group gap="sm">
        <Select
          label="Rows per page"
          data={PAGE_SIZES.map((size) => String(size))}
          value={String(pageSize)}
          onChange={(value) => value && onPageSize(Number(value) as PageSize)}
          allowDeselect={false}
          w={110}
          size="xs"
        />
        <Text size="sm" c="dimmed" mt="lg">
          {first}–{last} of {total}
        </Text>
      </Group>
      <nav aria-label="Pages">
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          siblings={1}
          boundaries={1}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      </nav>
    </Group>
  );
}
