import { Avatar, Group, Menu, Stack, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { AVATAR_SIZE } from '@quire/core';
import { IconCheck, IconSelector, IconShieldLock } from '@tabler/icons-react';
import { useRef, useState } from 'react';
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

/**
 * The photo from the identity provider, else {assets}/{userId}/avatar; initials when neither loads.
 * Decorative: the name is written beside it, so assistive technology skips it (its initials are not
 * a second label).
 */
function UserAvatar({ user }: { user: SessionUser }) {
  const src = user.photoURL || serviceUrl('assets', '', user.uid, 'avatar');
  return (
    <span aria-hidden style={{ display: 'inline-flex', flexShrink: 0 }}>
      <Avatar src={src} alt="" name={user.displayName || user.email} color="quire" size={AVATAR_SIZE} />
    </span>
  );
}

/** Name, e-mail and organisation, each on one line; a line too long for the navigation is cut with an ellipsis. */
function Identity({ user, currentOrganisation }: Pick<UserCardProps, 'user' | 'currentOrganisation'>) {
  return (
    <Stack gap={0} style={{ minWidth: 0, flex: 1 }} data-identity>
      <Text fw={600} size="sm" truncate="end">
        {user.displayName || user.email}
      </Text>
      <Text size="xs" c="dimmed" truncate="end">
        {user.email}
      </Text>
      {currentOrganisation ? (
        <Text size="xs" c="dimmed" truncate="end">
          {currentOrganisation.name}
        </Text>
      ) : null}
    </Stack>
  );
}

/** True when any line of the identity is cut (its text is wider than its box). */
function isCut(button: HTMLElement | null): boolean {
  if (!button) return false;
  return [...button.querySelectorAll<HTMLElement>('[data-identity] > *')].some((line) => line.scrollWidth > line.clientWidth);
}

/**
 * The signed-in user at the top of the navigation (spec §2): avatar, display name, e-mail. With
 * organisations to choose from, the whole card is the button that opens the organisation picker (and the
 * account's Security page, 2-step verification), so
 * its accessible name contains the name it shows (WCAG 2.5.3). A line cut for lack of room shows in
 * full in a tooltip on hover and on keyboard focus.
 */
export function UserCard({ user, organisations, currentOrganisation, onNavigate }: UserCardProps) {
  const navigate = useNavigate();
  const { opened, onChange, hoverHandlers } = useMenuCloseDelay();
  const button = useRef<HTMLButtonElement>(null);
  const [pointer, setPointer] = useState(false);
  const [focused, setFocused] = useState(false);
  const [cut, setCut] = useState(false);
  const name = user.displayName || user.email;

  const chooseOrganisation = (id: string) => {
    onNavigate?.();
    // The layout makes the organisation of the path current.
    navigate(paths.org.home(id));
  };

  if (organisations.length === 0) {
    return (
      <Group gap="sm" wrap="nowrap" p="sm">
        <UserAvatar user={user} />
        <Identity user={user} currentOrganisation={currentOrganisation} />
      </Group>
    );
  }

  const full = [name, user.email === name ? null : user.email, currentOrganisation?.name].filter(Boolean).join('\n');

  return (
    <>
      <Menu opened={opened} onChange={onChange} position="bottom-start" shadow="md" width={260}>
        <Menu.Target>
          <UnstyledButton
            ref={button}
            p="sm"
            w="100%"
            onMouseEnter={() => {
              hoverHandlers.onMouseEnter();
              setCut(isCut(button.current));
              setPointer(true);
            }}
            onMouseLeave={() => {
              hoverHandlers.onMouseLeave();
              setPointer(false);
            }}
            onFocus={() => {
              setCut(isCut(button.current));
              setFocused(true);
            }}
            onBlur={() => setFocused(false)}
          >
            <Group gap="sm" wrap="nowrap">
              <UserAvatar user={user} />
              <Identity user={user} currentOrganisation={currentOrganisation} />
              <IconSelector size={16} stroke={1.5} aria-hidden style={{ flexShrink: 0 }} />
            </Group>
            <VisuallyHidden>: choose organisation, account security</VisuallyHidden>
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
          <Menu.Divider />
          <Menu.Label>Your account</Menu.Label>
          <Menu.Item
            leftSection={<IconShieldLock size={16} aria-hidden />}
            onClick={() => {
              onNavigate?.();
              navigate(paths.account.security());
            }}
          >
            Security
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Tooltip
        target={button}
        label={full}
        opened={cut && !opened && (pointer || focused)}
        position="bottom-start"
        multiline
        maw={320}
        style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
      />
    </>
  );
}
