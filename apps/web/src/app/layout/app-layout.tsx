import { AppShell, Burger, Group, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { WIDE_LAYOUT_MIN_WIDTH } from '@quire/core';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SkipLink } from '../../components/ui/skip-link.js';
import { CHAT_LAUNCHER_ROOM } from '../../lib/chat-support/intercom.js';
import { useConsoleConfig } from '../../lib/console-config.js';
import { SideNav } from './side-nav.js';

const MAIN_ID = 'main-content';
/** Wide layout above 1150 px (spec §9): a permanent navbar; below it, a burger. */
const WIDE_LAYOUT_QUERY = `(min-width: ${WIDE_LAYOUT_MIN_WIDTH + 1}px)`;

/** The authenticated console: side navigation and the current screen. */
export function AppLayout({ orgId }: { orgId: string }) {
  const config = useConsoleConfig();
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY, true, { getInitialValueInEffect: false });
  const [navOpened, nav] = useDisclosure(false);
  const closeNav = nav.close;
  const { pathname } = useLocation();

  // A followed link or a change to wide closes the narrow drawer.
  useEffect(() => closeNav(), [pathname, wide, closeNav]);

  const navHidden = !wide && !navOpened;
  // Open, the narrow drawer covers the screen: the screen behind it is out of reach (Tab stays in the header and the
  // drawer, never on a control it hides), and Escape closes it, back to the burger.
  const drawerOpen = !wide && navOpened;
  const burger = useRef<HTMLButtonElement>(null);
  const closeOnEscape = (event: KeyboardEvent<HTMLElement>) => {
    // Only from the header or the drawer themselves: a menu opened from the drawer (in a portal) closes alone.
    if (!drawerOpen || event.key !== 'Escape' || !event.currentTarget.contains(event.target as Node)) return;
    closeNav();
    burger.current?.focus();
  };

  // With the chat widget on, its launcher's room stays free below the screen's content.
  const mainStyle = config.chatSupportProvider === 'intercom'
    ? { outline: 'none', paddingBottom: `calc(var(--app-shell-footer-offset, 0rem) + var(--app-shell-padding) + ${CHAT_LAUNCHER_ROOM}px)` }
    : { outline: 'none' };

  return (
    <AppShell
      header={{ height: 56, collapsed: wide }}
      navbar={{ width: 280, breakpoint: WIDE_LAYOUT_MIN_WIDTH + 1, collapsed: { mobile: !navOpened } }}
      padding="lg"
    >
      <SkipLink targetId={MAIN_ID} />
      {wide ? null : (
        <AppShell.Header onKeyDown={closeOnEscape}>
          <Group h="100%" px="md" gap="sm">
            <Burger
              ref={burger}
              opened={navOpened}
              onClick={nav.toggle}
              size="sm"
              aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={navOpened}
              aria-controls="console-navigation"
            />
            <Text fw={700}>{config.productName}</Text>
          </Group>
        </AppShell.Header>
      )}
      <AppShell.Navbar id="console-navigation" aria-label="Main navigation" inert={navHidden} onKeyDown={closeOnEscape}>
        <SideNav orgId={orgId} wide={wide} onNavigate={nav.close} />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={mainStyle} inert={drawerOpen}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
