import { Menu, NavLink, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useMenuCloseDelay } from './use-menu-close-delay.js';

type NavMenuEntry =
  | { kind: 'route'; label: string; to: string }
  | { kind: 'external'; label: string; href: string };

export interface NavMenuProps {
  label: string;
  icon: ReactNode;
  entries: NavMenuEntry[];
  /** Where the dropdown opens: beside a permanent navbar, below in the narrow drawer. */
  position: 'right-start' | 'bottom-start';
  onNavigate?: () => void;
}

/** A navigation group (Resources, Settings) opening a menu of links. */
export function NavMenu({ label, icon, entries, position, onNavigate }: NavMenuProps) {
  const { opened, onChange, hoverHandlers } = useMenuCloseDelay();
  const { pathname } = useLocation();
  const containsCurrent = entries.some((e) => e.kind === 'route' && pathname === e.to);
  // The chevron points where the menu opens: right beside the navbar, down in the narrow drawer.
  const Chevron = position === 'bottom-start' ? IconChevronDown : IconChevronRight;

  return (
    <Menu opened={opened} onChange={onChange} position={position} offset={4} shadow="md" width={220}>
      <Menu.Target>
        <NavLink
          component="button"
          type="button"
          label={label}
          leftSection={icon}
          rightSection={<Chevron size={16} stroke={1.5} aria-hidden />}
          active={containsCurrent}
          {...hoverHandlers}
        />
      </Menu.Target>
      <Menu.Dropdown {...hoverHandlers}>
        {entries.map((entry) =>
          entry.kind === 'route' ? (
            <Menu.Item
              key={entry.label}
              component={Link}
              to={entry.to}
              onClick={onNavigate}
              aria-current={pathname === entry.to ? 'page' : undefined}
            >
              {entry.label}
            </Menu.Item>
          ) : (
            <Menu.Item
              key={entry.label}
              component="a"
              href={entry.href}
              target="_blank"
              rel="noopener noreferrer"
              rightSection={<IconExternalLink size={14} stroke={1.5} aria-hidden />}
            >
              {entry.label}
              <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
