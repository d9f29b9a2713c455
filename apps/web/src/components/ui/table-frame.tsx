import { Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { forwardRef, type ReactNode } from 'react';
import classes from './responsive-table.module.css';

/** Below this much room (44em) a table shows its chosen narrow column set. */
export const NARROW_TABLE_MAX_WIDTH = 704;

/**
 * How much room a table has: `narrow` below 44em, when it shows a chosen column set with the dropped
 * columns' values inside a column that stays and the row's menu in view (issue 15, item 14). Until the
 * frame has been measured (and in tests without layout) the table is wide.
 */
export function useTableRoom() {
  const { ref, width } = useElementSize<HTMLDivElement>();
  return { ref, narrow: width > 0 && width <= NARROW_TABLE_MAX_WIDTH };
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
 * An e-mail address in a table: on one line when the table has room (issue 15: at 1280 px most wrapped);
 * with less, it breaks after its '@' (and, for a very long one, anywhere) rather than push the row's menu
 * out of view.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <Text size="sm" className={classes.oneLine} style={{ overflowWrap: 'anywhere' }}>
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </Text>
  );
}
