import { Text } from '@mantine/core';
import { forwardRef, Fragment, useCallback, useState, type ReactNode } from 'react';
import classes from './responsive-table.module.css';

/** Below this much room (44em) a table shows its chosen narrow column set. */
const NARROW_TABLE_MAX_WIDTH = 704;

/**
 * How much room a table has: `narrow` at `narrowAtMost` px or less (44em unless the table says otherwise), when it
 * shows a chosen column set with the dropped columns' values inside a column that stays and the row's menu in view
 *.
 *
 * The table renders again only when that answer changes, not at every change of the frame's width (a full render of
 * a page of rows each time: docs/performance-log.md, "First load"). The first render already knows the answer on a
 * viewport no wider than that, where the frame cannot be wider; otherwise the table is wide until the frame has been
 * measured (and in tests without layout).
 */
export function useTableRoom(narrowAtMost = NARROW_TABLE_MAX_WIDTH) {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.innerWidth > 0 && window.innerWidth <= narrowAtMost);
  const ref = useCallback(
    (frame: HTMLDivElement | null) => {
      if (!frame || typeof ResizeObserver === 'undefined') return undefined;
      const observer = new ResizeObserver((entries) => {
        const width = entries[entries.length - 1]?.contentRect.width ?? 0;
        if (width > 0) setNarrow(width <= narrowAtMost);
      });
      observer.observe(frame);
      return () => observer.disconnect();
    },
    [narrowAtMost],
  );
  return { ref, narrow };
}

/** The frame a responsive table sits in: a size container, measured by `useTableRoom`. */
export const TableFrame = forwardRef<HTMLDivElement, { children: ReactNode }>(function TableFrame({ children }, ref) {
  return (
    <div ref={ref} className={classes.frame}>
      {children}
    </div>
  );
});

/**
 * An e-mail address in a table: on one line when the table has room;
 * with less, it breaks after its '@' or a dot (and, for a very long part, anywhere) rather than push the row's menu
 * out of view, in a column kept at least about 14 characters wide.
 */
export function EmailText({ email }: { email: string }) {
  // 'it.office@', 'maplegrove.', 'example.', 'org': a break may follow each part.
  const parts = email.split(/(?<=[@.])/);
  return (
    <Text size="sm" className={`${classes.oneLine} ${classes.email}`} style={{ overflowWrap: 'anywhere' }}>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </Text>
  );
}
