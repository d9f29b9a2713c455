import { MENU_CLOSE_DELAY_MS } from '@quire/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A navigation menu's open state with the spec's timing (§2, §9): it closes 2000 ms after the
 * mouse leaves both its button and its dropdown, and stays open while the mouse comes back.
 * Spread `hoverHandlers` on Menu.Target's child and on Menu.Dropdown.
 */
export function useMenuCloseDelay(delayMs: number = MENU_CLOSE_DELAY_MS) {
  const [opened, setOpened] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const scheduleClose = useCallback(() => {
    cancelClose();
    timer.current = setTimeout(() => {
      timer.current = null;
      setOpened(false);
    }, delayMs);
  }, [cancelClose, delayMs]);

  useEffect(() => cancelClose, [cancelClose]);

  const onChange = useCallback(
    (next: boolean) => {
      cancelClose();
      setOpened(next);
    },
    [cancelClose],
  );

  return {
    opened,
    onChange,
    hoverHandlers: { onMouseEnter: cancelClose, onMouseLeave: scheduleClose },
  };
}
