import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface RowMenuProps {
  /** The trigger's accessible name, e.g. 'Actions for {email}'. */
  label: string;
  /** The dropdown's width in pixels. */
  width: number;
  /** The menu's items. */
  children: ReactNode;
}

/** A table row's action menu: the dots button at the row's end and its dropdown, opening below to the left. */
export function RowMenu({ label, width, children }: RowMenuProps) {
  return (
    <Menu position="bottom-end" shadow="md" width={width}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
