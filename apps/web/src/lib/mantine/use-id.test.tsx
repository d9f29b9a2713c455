import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useId } from './use-id.js';

function Probe({ id, onRender }: { id?: string; onRender: (id: string) => void }) {
  const uuid = useId(id);
  onRender(uuid);
  return <span data-testid="probe" id={uuid} />;
}

describe("useId (Mantine's, as the build uses it)", () => {
  it('gives each component its own id from the first render, without rendering it again', () => {
    const seen = vi.fn();
    const { getAllByTestId } = render(
      <>
        <Probe onRender={seen} />
        <Probe onRender={seen} />
      </>,
    );
    // One render each: Mantine's own hook set a random id after mounting, which rendered every component twice.
    expect(seen).toHaveBeenCalledTimes(2);
    const ids = getAllByTestId('probe').map((probe) => probe.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^mantine-[A-Za-z0-9_-]+$/);
  });

  it('keeps an id the caller gives', () => {
    const seen = vi.fn();
    render(<Probe id="licence-select" onRender={seen} />);
    expect(seen).toHaveBeenLastCalledWith('licence-select');
  });
});
