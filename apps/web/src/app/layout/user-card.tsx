import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { AVATAR_SIZE } from '@quire/core';
import { IconCheck } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths.js';
import { serviceUrl } from '../../lib/api/service-url.js';
import type { OrganisationSummary } from '@quire/core';
import type { CurrentOrganisation, SessionUser } from '../../lib/session/index.js';
import { useMenuCloseDelay } from './use-menu-close-delay.js';

export interface UserCardProps {
  user: SessionUser;
  organisations: OrganisationSummary[];
  currentOrganisation: CurrentOrganisation | null;
  onNavigate?: () => void;
}

function UserAvatar({ user }: { user: SessionUser }) {
  // The photo from the identity provider, else {assets}/{userId}/avatar; initials when neither loads.
  const src = user.photoURL || serviceUrl('assets', '', user.uid, 'avatar');
  return <Avatar src={src} alt="" name={user.displayName || user.email} color="quire" size={AVATAR_SIZE} />;
}

/**
 * The signed-in user at the top of the navigation (spec §2): avatar, display name, e-mail. The
 * avatar opens the organisation picker when the user has organisations.
 */
export function UserCard({ user, organisations, currentOrganisation, onNavigate }: UserCardProps) {
  const navigate = useNavigate();
  const { opened, onChange, hoverHandlers } = useMenuCloseDelay();

  const chooseOrganisation = (id: string) => {
    onNavigate?.();
    // The layout makes the organisation of the path current.
    navigate(paths.org.home(id));
  };

  return (
    <Group gap="sm" wrap="nowrap" p="sm">
      {organisations.length > 0 ? (
        <Menu opened={opened} onChange={onChange} position="bottom-start" shadow="md" width={260}>
          <Menu.Target>
            <UnstyledButton aria-label="Choose organisation" style={{ borderRadius: '50%' }} {...hoverHandlers}>
              <UserAvatar user={user} />
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown {...hoverHandlers} mah={360} style={{ overflowY: 'auto' }}>
            <Menu.Label>Organisations</Menu.Label>
            {organisations.map((organisation) => {
              const current = organisation.id === currentOrganisation?.id;
              return (
                <Menu.Item
                  key={organisation.id}
                  onClick={() => chooseOrganisation(organisation.id)}
                  rightSection={current ? <IconCheck size={16} aria-hidden /> : null}
                  aria-current={current ? 'true' : undefined}
                >
                  {organisation.name}
                </Menu.Item>
              );
            })}
          </Menu.Dropdown>
        </Menu>
      ) : (
        <UserAvatar user={user} />
      )}
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text fw={600} size="sm" truncate="end">
          {user.displayName || user.email}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {user.email}
        </Text>
        {currentOrganisation ? (
          <Text size="xs" c="dimmed" truncate="end" title={currentOrganisation.name}>
            {currentOrganisation.name}
          </Text>
        ) : null}
      </Stack>
    </Group>
  );
}
