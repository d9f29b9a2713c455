import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './responsive-table.module.css';

/**
 * Class names of a table readable from 390 px up (responsive-table.module.css): `wideOnly` cells drop out
 * and `narrowOnly` content shows when the table has little room; `oneLine` text stays on one line when
 * it has plenty.
 */
export const responsiveTable = {
  wideOnly: classes.wideOnly ?? '',
  narrowOnly: classes.narrowOnly ?? '',
  oneLine: classes.oneLine ?? '',
};

/** The size container a responsive table sits in: its rules follow the table's room, not the window's. */
export function TableFrame({ children }: { children: ReactNode }) {
  return <div className={classes.frame}>{children}</div>;
}

/**
 * An e-mail address in a table: on one line when the table has room (issue 15: at 1280 px most wrapped);
 * with less, it breaks after its '@' (and, for a very long one, anywhere) rather than push the row's menu
 * out of view.
 */
export function EmailText({ email }: { email: string }) {
  const at = email.indexOf('@');
  return (
    <Text size="sm" className={responsiveTable.oneLine} style={{ overflowWrap: 'anywhere' }}>
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
