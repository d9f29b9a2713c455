import { Modal, type ModalProps } from '@mantine/core';
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import classes from './dialog.module.css';

/**
 * Where focus goes back to when a dialog closes: the control that opened it first, then (when that
 * control has gone, e.g. its row was removed) the screen's main landmark.
 */
type ReturnTargets = HTMLElement[];

/** The main landmark of the console layout (app/layout/app-layout.tsx); it takes focus (tabIndex -1). */
const MAIN_LANDMARK_ID = 'main-content';

/** The control that opened a menu, for a menu item (a submenu's item leads to the menu above, and so on). */
function menuTrigger(element: HTMLElement): HTMLElement | null {
  const menu = element.closest<HTMLElement>('[role="menu"]');
  if (!menu?.id) return null;
  return document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
}

/** A menu item stands for the button of its menu (a submenu's item for the menu above it, and so on). */
function outsideMenus(element: HTMLElement | null): HTMLElement | null {
  let current = element;
  for (let depth = 0; current?.closest('[role="menu"]') && depth < 5; depth += 1) current = menuTrigger(current);
  return current;
}

/**
 * The last control outside any dialog that had focus, a menu item standing for its menu's button. Read
 * when focus has already left with the control (a menu closes in the same moment its item opens a dialog).
 */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (event) => {
      const target = event.target;
      if (!(target instanceof HTMLElement) || target.closest('[role="dialog"]')) return;
      lastFocused = outsideMenus(target) ?? lastFocused;
    },
    true,
  );
}

/** What to focus when a dialog opened now closes: the focused control, or the last one when focus is lost. */
function returnTargetsOf(active: Element | null): ReturnTargets {
  const opener = active instanceof HTMLElement && active !== document.body && !active.closest('[role="menu"]') ? active : lastFocused;
  return opener ? [opener] : [];
}

/** Focuses the first target still on the page, else the main landmark. */
function restoreFocus(targets: ReturnTargets): void {
  const active = document.activeElement;
  // Someone else has placed focus meanwhile (another dialog, a field the user clicked): leave it.
  if (active && active !== document.body && active.isConnected && !active.closest('[data-dialog-closing]')) return;
  for (const target of targets) {
    if (!target.isConnected || target.closest('[inert], [aria-hidden="true"]')) continue;
    target.focus({ preventScroll: false });
    if (document.activeElement === target) return;
  }
  document.getElementById(MAIN_LANDMARK_ID)?.focus();
}

/**
 * A dialog that closed in this very moment, whose focus has not been given back yet. A dialog opening in
 * the same moment takes over its targets (the library viewer's 'Manage libraries' becomes the wizard:
 * closing the wizard returns to the row's menu button, not to the vanished viewer).
 */
let handOver: { targets: ReturnTargets; timer: ReturnType<typeof setTimeout> } | null = null;

/** Focusable elements, in order, that a keyboard user can reach. */
const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function reachable(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node; node = node.parentElement) {
    if (node.hidden || getComputedStyle(node).display === 'none' || getComputedStyle(node).visibility === 'hidden') return false;
  }
  // A radio group is one tab stop: its checked radio, else its first.
  if (element instanceof HTMLInputElement && element.type === 'radio' && !element.checked && element.name) {
    const group = document.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(element.name)}"]`);
    return ![...group].some((radio) => radio.checked) && group[0] === element;
  }
  return true;
}

/**
 * Puts focus on the dialog's first field or primary action: the element marked
 * `data-autofocus`, else the first focusable element of its body, never the header's Close button.
 * Focus already on a control of the body stays there.
 */
function focusFirst(body: HTMLElement | null): void {
  if (!body) return;
  const active = document.activeElement;
  if (active instanceof HTMLElement && body.contains(active) && active !== body) return;
  const marked = body.querySelector<HTMLElement>('[data-autofocus]');
  const target = marked && reachable(marked) ? marked : [...body.querySelectorAll<HTMLElement>(FOCUSABLE)].find(reachable);
  target?.focus();
}

export interface DialogProps extends ModalProps {
  /**
   * Changes when the dialog shows new content (a step, a loaded list): focus then moves to the new
   * content's first field or primary action, instead of being lost with the control that was removed.
   */
  focusKey?: string | number;
}

/**
 * The console's dialog: Mantine's Modal with the focus rules of WCAG 2.4.3. It opens
 * on its first field or primary action, moves focus into new content when a step changes, and gives focus
 * back to the control that opened it (a menu item's menu button) when it closes or unmounts.
 */
export function Dialog({ opened, focusKey, children, closeButtonProps, ...props }: DialogProps) {
  const id = useId();
  const body = useRef<HTMLDivElement>(null);
  const targets = useRef<ReturnTargets>([]);

  // Before the focus trap moves focus into the dialog: remember who opened it.
  useLayoutEffect(() => {
    if (!opened) return;
    const root = () => document.querySelector(`[data-dialog-id="${CSS.escape(id)}"]`);
    root()?.removeAttribute('data-dialog-closing');
    if (handOver) {
      clearTimeout(handOver.timer);
      targets.current = handOver.targets;
      handOver = null;
    } else {
      targets.current = returnTargetsOf(document.activeElement);
    }
    return () => {
      const leaving = targets.current;
      // While it fades out, focus may still sit inside it: that counts as lost.
      root()?.setAttribute('data-dialog-closing', '');
      if (handOver) clearTimeout(handOver.timer);
      const timer = setTimeout(() => {
        handOver = null;
        restoreFocus(leaving);
      }, 0);
      handOver = { targets: leaving, timer };
    };
  }, [opened, id]);

  // After the focus trap: the first field or primary action rather than Close; again when the content changes.
  useEffect(() => {
    if (!opened) return;
    const timer = setTimeout(() => focusFirst(body.current), 0);
    return () => clearTimeout(timer);
  }, [opened, focusKey]);

  return (
    <Modal
      opened={opened}
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close', ...closeButtonProps }}
      data-dialog-id={id}
      classNames={{ content: classes.content }}
      {...props}
    >
      <div ref={body}>{children}</div>
    </Modal>
  );
}
