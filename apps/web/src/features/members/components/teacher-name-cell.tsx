import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { ambassadorTooltip } from '@quire/core';
import { IconStarFilled } from '@tabler/icons-react';
import type { Member } from '@quire/core';

/**
 * Name with its badges: Library Manager (orgLibraries only) and the ambassador star with its tooltip. The
 * name is never cut short: with too little room beside it, a badge moves under the name.
 */
export function TeacherNameCell({ member, libraryManager, productName }: { member: Member; libraryManager: boolean; productName: string }) {
  const label = ambassadorTooltip(productName);
  return (
    <Group gap={4} wrap="wrap">
      {/* Teachers who have not signed up yet have no name. */}
      {member.displayName ? (
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {member.displayName}
        </Text>
      ) : null}
      {member.isAmbassador ? (
        <Tooltip label={label} withArrow>
          {/* Focusable so keyboard users reach the tooltip too (it shows on focus). */}
          <span role="img" aria-label={label} tabIndex={0} style={{ display: 'inline-flex', color: 'var(--mantine-color-orange-9)' }}>
            <IconStarFilled size={16} aria-hidden />
          </span>
        </Tooltip>
      ) : null}
      {libraryManager ? (
        <Badge variant="outline" color="quire" size="sm" style={{ flexShrink: 0 }}>
          Library Manager
        </Badge>
      ) : null}
    </Group>
  );
}
