import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface RowMenuProps {
  /** The trigger's accessible name, e.g. 'Actions for {email}'. */
  label: string;
  /** The dropdown's width in pixels. */
  width: number;
  /** The menu's items. */
  children: ReactNode;
}

/**
 * A table row's action menu: the dots button at the row's end and its dropdown, opening below to the left.
 *
 * The menu (Mantine's Menu with its popover and positioning) mounts the first time its button is pressed, not with
 * the row: a page of 100 rows drew 100 menus nobody had opened, and that was a third of the Teachers screen's
 * rendering time on a phone (docs/performance-log.md, "First load"). Until then the button is a plain one announcing
 * the same menu (aria-haspopup, aria-expanded); pressed, it becomes the menu's own trigger, takes focus, and the menu
 * opens, so closing it returns focus to the button as before.
 */
export function RowMenu({ label, width, children }: RowMenuProps) {
  const [stage, setStage] = useState<'idle' | 'mounting' | 'mounted'>('idle');
  const [opened, setOpened] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  // The mounted menu's trigger is a new element: it takes the focus the pressed button had, then the menu opens (its
  // focus return remembers the element focused when it opens). Layout effect: both before the next paint.
  useLayoutEffect(() => {
    if (stage !== 'mounting') return;
    trigger.current?.focus();
    setStage('mounted');
    setOpened(true);
  }, [stage]);

  if (stage === 'idle') {
    return (
      <ActionIcon ref={trigger} variant="subtle" color="gray" aria-label={label} aria-haspopup="menu" aria-expanded={false} onClick={() => setStage('mounting')}>
        <IconDots size={18} aria-hidden />
      </ActionIcon>
    );
  }
  return (
    <Menu position="bottom-end" shadow="md" width={width} opened={opened} onChange={setOpened}>
      <Menu.Target>
        {/* Mantine closes the menu on an Escape inside it; focus moves there only once the menu has opened, so an
            Escape pressed on the button before that left it open. */}
        <ActionIcon
          ref={trigger}
          variant="subtle"
          color="gray"
          aria-label={label}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && opened) setOpened(false);
          }}
        >
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
