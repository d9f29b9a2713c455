import { MantineProvider } from '@mantine/core';
import { analyticsMessages } from '@quire/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChartTable } from '../model/chart-table.js';
import { ChartCard, type ChartCardProps } from './chart-card.js';

const table: ChartTable = {
  columns: ['Date', 'Students', 'Teachers', 'Total'],
  rows: [['Week of 4 Mar 2024', 2, 1, 3], ['Week of 11 Mar 2024', 4, 0, 4]],
  totals: [6, 1, 7],
  keys: ['Students', 'Teachers', 'Total'],
};

function renderCard(props: Partial<ChartCardProps> = {}) {
  return render(
    <MantineProvider>
      <ChartCard title="Sessions" height={400} description="Sessions per week" isPending={false} error={null} table={table} fileName={['Hillside', 'Weekly']}
        onRetry={() => Promise.resolve()} {...props}>
        {() => <svg data-testid="drawing" />}
      </ChartCard>
    </MantineProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('a chart card', () => {
  it('shows the drawing as one named image, 400 px high, with its figures in a table behind a button', () => {
    renderCard();
    const region = screen.getByRole('region', { name: 'Sessions' });
    const image = within(region).getByRole('img', { name: 'Sessions per week. The figures are in the data table of Sessions.' });
    expect(image).toHaveStyle({ height: '400px' });
    // jsdom's name computation drops Mantine's visually hidden text; the browser's (e2e) keeps it.
    const toggle = within(region).getByRole('button', { name: /^Show data table/ });
    expect(toggle).toHaveTextContent('Show data table of Sessions');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(within(region).getByRole('button', { name: /^Hide data table/ })).toHaveAttribute('aria-expanded', 'true');
    const shown = within(region).getByRole('table');
    expect(within(shown).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Date', 'Students', 'Teachers', 'Total']);
    expect(within(shown).getByRole('rowheader', { name: 'Week of 4 Mar 2024' })).toBeInTheDocument();
    expect(within(shown).getByRole('rowheader', { name: 'Total' })).toBeInTheDocument();
    expect(within(region).getByRole('region', { name: 'Data table of Sessions' })).toHaveAttribute('tabindex', '0');
  });

  it('downloads the same figures as CSV', async () => {
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:x';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderCard();
    fireEvent.click(screen.getByRole('button', { name: /^Download CSV/ }));
    expect(click).toHaveBeenCalled();
    const bytes = await new Promise<Uint8Array>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
      reader.readAsArrayBuffer(saved as unknown as Blob);
    });
    // UTF-8 with its byte-order mark, kept by decoding with ignoreBOM.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe('\uFEFFDate,Students,Teachers,Total\r\nWeek of 4 Mar 2024,2,1,3\r\nWeek of 11 Mar 2024,4,0,4\r\nTotal,6,1,7\r\n');
  });

  it('says when there is nothing to draw, and offers no table or download then', () => {
    renderCard({ table: { ...table, rows: [['Week of 4 Mar 2024', 0, 0, 0]], totals: [0, 0, 0] } });
    expect(screen.getByText(analyticsMessages.noData)).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByTestId('drawing')).toBeNull();
  });

  it('shows the catalogue error text with Retry, or a loading status', () => {
    const onRetry = vi.fn(() => Promise.resolve());
    const { unmount } = renderCard({ error: analyticsMessages.customFailed, table: null, onRetry });
    expect(screen.getByRole('alert')).toHaveTextContent(analyticsMessages.customFailed);
    fireEvent.click(screen.getByRole('button', { name: 'Retry Sessions' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    unmount();
    renderCard({ isPending: true, table: null });
    expect(within(screen.getByRole('status')).getByLabelText('Loading Sessions')).toBeInTheDocument();
  });
});
