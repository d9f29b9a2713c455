import { Alert, Button, CopyButton, Group, List, Stack, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useConsoleConfig } from '../../../lib/console-config.js';
import { saveFile } from '../../../lib/save-file.js';

/** The text file 'Download as text file' saves: the codes, one a line, and what they are for. */
function recoveryCodesText(codes: readonly string[], productName: string, email: string): string {
  return [
    `${productName} recovery codes for ${email}`,
    '',
    'Each code signs you in once when you cannot use your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

export interface RecoveryCodesPanelProps {
  codes: readonly string[];
  email: string;
  /** 'I have saved them': the codes are not shown again. */
  onDone: () => void;
  doneLabel: string;
}

/**
 * Ten recovery codes, shown this once (the server keeps only their hashes): Copy and 'Download as text file'. The
 * heading takes focus when it appears, so a screen reader starts reading here.
 */
export function RecoveryCodesPanel({ codes, email, onDone, doneLabel }: RecoveryCodesPanelProps) {
  const { productName } = useConsoleConfig();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = codes.join('\n');
  return (
    <Stack gap="sm" aria-labelledby="recovery-codes-heading" component="section">
      <Title order={2} size="h3" id="recovery-codes-heading" ref={heading} tabIndex={-1}>
        Save your recovery codes
      </Title>
      <Alert color="yellow" variant="light" role="note">
        These codes are shown only now. Each one signs you in once if you lose your phone or cannot use your authenticator app. Keep
        them somewhere safe, such as a password manager.
      </Alert>
      <List type="ordered" ff="monospace" spacing={2} data-testid="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group gap="sm">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={() => saveFile(new Blob([recoveryCodesText(codes, productName, email)], { type: 'text/plain;charset=utf-8' }), `${productName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-recovery-codes.txt`)}>
          Download as text file
        </Button>
      </Group>
      <Group>
        <Button onClick={onDone}>{doneLabel}</Button>
      </Group>
    </Stack>
  );
}
