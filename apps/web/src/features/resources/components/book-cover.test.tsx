import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { BookCover } from './book-cover.js';

const book = { uid: 'examples', bookId: 'b-1', shape: 'landscape' as const, title: 'Field Trip Journal' };

describe('BookCover (spec §4 "Book cover loading")', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());

  it('asks for width 250, keeps the image hidden until it loads, then shows it', () => {
    const { container } = renderAt(<BookCover book={book} />);
    const img = screen.getByRole('img', { hidden: true }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/assets/examples/b-1?width=250');
    expect(img.style.visibility).toBe('hidden');
    fireEvent.load(img);
    expect(img.style.visibility).toBe('visible');
    expect(container.querySelector('[data-shape="landscape"]')).not.toBeNull();
  });

  it('retries once after 2 seconds with a retry marker, then shows the title; never a broken image', () => {
    renderAt(<BookCover book={book} />);
    fireEvent.error(screen.getByRole('img', { hidden: true }));
    // Waiting: no image at all, so no broken-image icon.
    expect(screen.queryByRole('img', { hidden: true })).toBeNull();
    act(() => void vi.advanceTimersByTime(1_999));
    expect(screen.queryByRole('img', { hidden: true })).toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    const retry = screen.getByRole('img', { hidden: true });
    expect(retry.getAttribute('src')).toBe('/assets/examples/b-1?width=250&retry=1');
    fireEvent.error(retry);
    expect(screen.queryByRole('img', { hidden: true })).toBeNull();
    expect(screen.getByText('Field Trip Journal')).toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(screen.queryByRole('img', { hidden: true })).toBeNull();
  });

  it('shows the image when the retry succeeds', () => {
    renderAt(<BookCover book={book} />);
    fireEvent.error(screen.getByRole('img', { hidden: true }));
    act(() => void vi.advanceTimersByTime(2_000));
    const retry = screen.getByRole('img', { hidden: true }) as HTMLImageElement;
    fireEvent.load(retry);
    expect(screen.getByRole('img', { name: 'Field Trip Journal' })).toBeVisible();
  });
});
