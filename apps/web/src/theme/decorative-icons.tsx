import { AccordionChevron, CloseIcon } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight, IconDots, IconEye, IconEyeOff, type Icon } from '@tabler/icons-react';
import type { CSSProperties } from 'react';

/**
 * Icons for the theme's component defaults, hidden from assistive technology (WCAG 1.1.1). Mantine draws its own chevrons, arrows and crosses as bare <svg> elements that screen
 * readers meet as unnamed graphics; the control around each already says what it does.
 */

interface PaginationIconProps {
  className?: string;
  style?: CSSProperties;
}

const paginationIcon = (TablerIcon: Icon) => {
  const PaginationIcon = ({ className, style }: PaginationIconProps) => <TablerIcon className={className} style={style} stroke={1.75} aria-hidden />;
  PaginationIcon.displayName = `Hidden${TablerIcon.displayName ?? 'Icon'}`;
  return PaginationIcon;
};

/** Pagination's previous / next / first / last arrows and its dots. */
export const paginationIcons = {
  previousIcon: paginationIcon(IconChevronLeft),
  nextIcon: paginationIcon(IconChevronRight),
  firstIcon: paginationIcon(IconChevronsLeft),
  lastIcon: paginationIcon(IconChevronsRight),
  dotsIcon: paginationIcon(IconDots),
};

/** The cross of every close button (dialogs, notifications, alerts); the button carries the name. */
export const hiddenCloseIcon = <CloseIcon aria-hidden />;

/** A submenu item's chevron (Mantine's own, turned to point right). */
export const hiddenSubmenuChevron = <AccordionChevron size={14} aria-hidden style={{ transform: 'rotate(-90deg)' }} />;

/** The password field's show / hide toggle; the toggle button is named 'Toggle password visibility'. */
export function PasswordVisibilityIcon({ reveal }: { reveal: boolean }) {
  const style = { width: 'var(--psi-icon-size)', height: 'var(--psi-icon-size)' };
  return reveal ? <IconEyeOff style={style} aria-hidden /> : <IconEye style={style} aria-hidden />;
}
