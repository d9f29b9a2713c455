import { Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBook2, IconChartBar, IconHome, IconLogout, IconSettings, IconUsers, IconBriefcase } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useMatch, useNavigate } from 'react-router';
import { paths } from '../../config/paths.js';
import { useConsoleConfig } from '../../lib/console-config.js';
import { useSession } from '../../lib/session/index.js';
import { NavMenu } from './nav-menu.js';
import { UserCard } from './user-card.js';

const iconProps = { size: 20, stroke: 1.5, 'aria-hidden': true } as const;

function NavItem({ to, label, icon, onNavigate }: { to: string; label: string; icon: ReactNode; onNavigate?: () => void }) {
  const active = useMatch({ path: to, end: true }) !== null;
  return (
    <NavLink
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

export interface SideNavProps {
  orgId: string;
  /** Dropdowns open beside a permanent navbar, below in the narrow drawer. */
  wide: boolean;
  /** Called when a link is followed (closes the narrow drawer). */
  onNavigate?: () => void;
}

/** The side navigation of spec §2. */
export function SideNav({ orgId, wide, onNavigate }: SideNavProps) {
  const session = useSession();
  const config = useConsoleConfig();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const menuPosition = wide ? 'right-start' : 'bottom-start';

  const signOut = async () => {
    setSigningOut(true);
    try {
      await session.signOut();
    } finally {
      setSigningOut(false);
      navigate(paths.signIn.root(), { replace: true });
    }
  };

  return (
    <Stack gap={0} h="100%">
      {wide ? (
        <Text fw={700} size="lg" px="md" pt="md">
          {config.productName}
        </Text>
      ) : null}
      {session.user ? (
        <UserCard
          user={session.user}
          organisations={session.organisations}
          currentOrganisation={session.currentOrganisation}
          onNavigate={onNavigate}
        />
      ) : null}
      <Divider />
      <ScrollArea style={{ flex: 1 }} type="auto">
        <Stack gap={2} p="xs">
          <NavItem to={paths.org.home(orgId)} label="Home" icon={<IconHome {...iconProps} />} onNavigate={onNavigate} />
          <NavItem to={paths.org.teachers(orgId)} label="Teachers" icon={<IconUsers {...iconProps} />} onNavigate={onNavigate} />
          <NavItem to={paths.org.analytics(orgId)} label="Analytics" icon={<IconChartBar {...iconProps} />} onNavigate={onNavigate} />
          {session.currentOrganisation?.features.studentPortfolios ? (
            <NavItem to={paths.org.portfolios(orgId)} label="Portfolios" icon={<IconBriefcase {...iconProps} />} onNavigate={onNavigate} />
          ) : null}
          <NavMenu
            label="Resources"
            icon={<IconBook2 {...iconProps} />}
            position={menuPosition}
            onNavigate={onNavigate}
            entries={[
              { kind: 'external', label: 'For Admins', href: config.helpUrl },
              { kind: 'route', label: 'For Teachers', to: paths.org.resources(orgId) },
            ]}
          />
          <NavMenu
            label="Settings"
            icon={<IconSettings {...iconProps} />}
            position={menuPosition}
            onNavigate={onNavigate}
            entries={[
              { kind: 'route', label: 'Admins', to: paths.org.admin(orgId) },
              { kind: 'route', label: 'LMS Integration', to: paths.org.lms(orgId) },
              { kind: 'route', label: 'Provisioning (SCIM)', to: paths.org.provisioning(orgId) },
              { kind: 'route', label: 'Rostering', to: paths.org.rostering(orgId) },
              { kind: 'route', label: 'Manage Apps', to: paths.org.apps(orgId) },
              { kind: 'route', label: 'Audit log', to: paths.org.audit(orgId) },
              { kind: 'route', label: 'Security', to: paths.org.security(orgId) },
            ]}
          />
        </Stack>
      </ScrollArea>
      <Divider />
      <Stack p="xs">
        <NavLink
          component="button"
          type="button"
          label="Sign out"
          leftSection={<IconLogout {...iconProps} />}
          onClick={() => void signOut()}
          disabled={signingOut}
        />
      </Stack>
    </Stack>
  );
}
