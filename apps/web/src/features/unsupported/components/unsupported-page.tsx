import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { browserMessages } from '@quire/core';
import { useDocumentTitle } from '../../../lib/document-title.js';

/** The browsers spec §2 suggests upgrading to, with where to get each. */
const UPGRADE_BROWSERS = [
  { name: 'Chrome', version: 'latest', href: 'https://www.google.com/chrome/' },
  { name: 'Safari', version: '8+', href: 'https://support.apple.com/downloads/safari' },
  { name: 'Internet Explorer', version: '11', href: 'https://support.microsoft.com/microsoft-edge/internet-explorer-downloads-d49e1f0d-571c-9a7b-d97e-be248806ca70' },
  { name: 'Edge', version: 'latest', href: 'https://www.microsoft.com/edge' },
] as const;

/**
 * /unsupported: shown to browsers the console does not support. It stands alone (no session,
 * no server configuration) so it renders whatever else fails.
 */
export function UnsupportedPage() {
  useDocumentTitle(browserMessages.unsupportedTitle, '');
  return (
    <Container component="main" size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>{browserMessages.unsupportedTitle}</Title>
        <Text>Please upgrade to one of these browsers:</Text>
        <List spacing="xs" aria-label="Supported browsers">
          {UPGRADE_BROWSERS.map((browser) => (
            <List.Item key={browser.name}>
              <Anchor href={browser.href} target="_blank" rel="noopener noreferrer">
                {browser.name} {browser.version}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Container>
  );
}
