import { Anchor, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { appProviderName, PRIVACY_DIALOG_WIDTH, withProductName, type AppCatalogueEntry } from '@quire/core';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { useConsoleConfig } from '../../../lib/console-config.js';

export interface PrivacyDialogProps {
  app: AppCatalogueEntry | null;
  onClose: () => void;
}

/**
 * An app's privacy details (spec §2 "Manage Apps", width 445): summary, detail, good to know, be aware, age, and the
 * terms and privacy policy of whoever provides the app (Adobe, Sketchfab, or the product itself), by name.
 */
export function PrivacyDialog({ app: current, onClose }: PrivacyDialogProps) {
  const config = useConsoleConfig();
  // While it closes (its fade), the dialog still shows the app it was opened on: emptied at once, it was a dialog
  // without a name for a moment.
  const [last, setLast] = useState(current);
  if (current && current !== last) setLast(current);
  const app = current ?? last;
  const terms = app?.termsURL ?? config.termsUrl;
  const privacy = app?.privacyPolicyURL ?? config.privacyUrl;
  const text = (value: string) => withProductName(value, config.productName);
  const owner = app ? (app.provider === 'product' ? config.productName : appProviderName(app)) : '';
  return (
    <Dialog
      opened={current !== null}
      onClose={onClose}
      title={app ? `${app.name}: privacy details` : ''}
      size={PRIVACY_DIALOG_WIDTH}
    >
      {app ? (
        <Stack gap="sm">
          <Text size="sm" fw={600}>
            {text(app.strings.summary)}
          </Text>
          <Text size="sm">{text(app.strings.detail)}</Text>
          <Title order={3} size="h5">
            Good to know
          </Title>
          <List size="sm" spacing={4}>
            {app.strings.goodToKnow.map((point) => (
              <List.Item key={point}>{text(point)}</List.Item>
            ))}
          </List>
          <Title order={3} size="h5">
            Be aware
          </Title>
          <List size="sm" spacing={4}>
            {app.strings.beAware.map((point) => (
              <List.Item key={point}>{text(point)}</List.Item>
            ))}
          </List>
          <Group gap="xs">
            <Badge variant="light" color="gray">
              Age
            </Badge>
            <Text size="sm">{text(app.ageNote)}</Text>
          </Group>
          <Group gap="md">
            <Anchor href={terms} target="_blank" rel="noreferrer" size="sm">
              {`${owner} terms of service`}
            </Anchor>
            <Anchor href={privacy} target="_blank" rel="noreferrer" size="sm">
              {`${owner} privacy policy`}
            </Anchor>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Dialog>
  );
}
