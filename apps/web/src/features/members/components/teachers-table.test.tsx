import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { teacherScreenAccess } from '../model/teacher-access.js';
import { buildMember } from '../../../test/fixtures.js';
import { TeachersTable } from './teachers-table.js';

/** Every table frame measures `width` pixels (jsdom lays nothing out). */
function tablesHaveRoom(width: number) {
  class Measured {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      const box = { inlineSize: width, blockSize: 400 };
      const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 400, right: width, width, height: 400 };
      this.callback([{ target, borderBoxSize: [box], contentBoxSize: [box], contentRect: rect } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
    }
    unobserve() {}
    disconnect() {}
  }
  vi.stubGlobal('ResizeObserver', Measured);
}

beforeEach(() => vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] }));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const access = teacherScreenAccess({
  organisation: { isDomain: false, features: { orgLibraries: true } },
  isAdmin: true,
  userEmail: 'ada@school.test',
  providerEmailDomain: 'provider.test',
});

function renderTable(options: { showSchool?: boolean; sort?: 'email' | 'school'; onSort?: (key: string) => void; rosterRole?: string } = {}) {
  const ann = buildMember({
    rosterRole: options.rosterRole ?? null,
    email: 'ann.longname@school.test',
    displayName: 'Ann Lee',
    role: 400,
    license: { id: 'lic-std', name: 'Standard', bookQuota: 40, libraryQuota: 5, applyToAll: false },
    badges: { calevel1: '2024-01-01', calevel2: null },
  });
  renderAt(
    <TeachersTable
      members={[ann]}
      status="active"
      access={access}
      productName="Quire"
      sort={options.sort ?? 'email'}
      dir="asc"
      onSort={options.onSort ?? vi.fn()}
      showSchool={options.showSchool}
      selected={new Set()}
      onToggle={vi.fn()}
      onTogglePage={vi.fn()}
      renderActions={(m) => <button type="button">{`Actions for ${m.email}`}</button>}
    />,
  );
  act(() => {
    vi.advanceTimersToNextFrame();
  });
  return screen.getByRole('table', { name: 'Active teachers' });
}

describe('the teachers table from 390 px up', () => {
  it('with little room keeps the e-mail column, shows the name and the dropped columns’ values in it, and the row menu', () => {
    tablesHaveRoom(358);
    const table = renderTable();
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent?.replace(/,.*$/, '').trim());
    expect(headers).toEqual(['', 'Email', 'Actions']);
    const row = within(table).getAllByRole('row')[1] as HTMLElement;
    const cells = within(row).getAllByRole('cell');
    expect(cells).toHaveLength(3);
    expect(cells[1]).toHaveTextContent('Ann Lee');
    expect(cells[1]).toHaveTextContent('Library Manager');
    expect(cells[1]).toHaveTextContent('ann.longname@school.test');
    expect(cells[1]).toHaveTextContent('Signed up: Yes · License: Standard (40 books · 5 libraries) · Certification: Complete');
    expect(within(cells[2] as HTMLElement).getByRole('button', { name: 'Actions for ann.longname@school.test' })).toBeInTheDocument();
  });

  it('with room shows every column of the spec', () => {
    tablesHaveRoom(960);
    const table = renderTable();
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent?.replace(/,.*$/, '').trim());
    expect(headers).toEqual(['', 'Name', 'Email', 'Signed up', 'License', 'Certification', 'Actions']);
  });

  it("a district's list sorts by School from its header, by keyboard", async () => {
    tablesHaveRoom(960);
    const onSort = vi.fn();
    const table = renderTable({ showSchool: true, onSort });
    const header = within(table).getByRole('columnheader', { name: /^School/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    const button = within(header).getByRole('button', { name: 'School, sort' });
    button.focus();
    vi.useRealTimers();
    await userEvent.setup().keyboard('{Enter}');
    expect(onSort).toHaveBeenCalledWith('school');
  });

  it('shows the role the SIS gave a rostered teacher in a Roster role column, and under the e-mail when the table is narrow', () => {
    tablesHaveRoom(960);
    const wide = renderTable({ rosterRole: 'siteAdministrator' });
    const headers = within(wide).getAllByRole('columnheader').map((h) => h.textContent?.replace(/,.*$/, '').trim());
    expect(headers).toEqual(['', 'Name', 'Email', 'Signed up', 'License', 'Certification', 'Roster role', 'Actions']);
    const cells = within(within(wide).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells[6]).toHaveTextContent(/^siteAdministrator$/);
  });

  it('narrow, names the roster role with the dropped columns’ values', () => {
    tablesHaveRoom(358);
    const narrow = renderTable({ rosterRole: 'principal' });
    expect(within(narrow).getAllByRole('columnheader').map((h) => h.textContent?.replace(/,.*$/, '').trim())).toEqual(['', 'Email', 'Actions']);
    const cells = within(within(narrow).getAllByRole('row')[1] as HTMLElement).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('Certification: Complete · Roster role: principal');
  });

  it("marks the School header sorted when the list is sorted by school", () => {
    tablesHaveRoom(960);
    const table = renderTable({ showSchool: true, sort: 'school' });
    expect(within(table).getByRole('columnheader', { name: /^School/ })).toHaveAttribute('aria-sort', 'ascending');
  });
});
