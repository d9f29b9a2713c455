import { Alert, Button, Checkbox, Group, Input, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import type { RosterImport, RosterUploadQuery } from '@quire/core';
import { forwardRef, useState, type FormEvent } from 'react';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import { userFacingMessage } from '../../../lib/api/index.js';
import { useUploadRoster } from '../api/roster-imports.js';

type Aides = RosterUploadQuery['aides'];
type Licence = RosterUploadQuery['licence'];

const FILE_NAME_MAX = 255;

/** The mapping choices and the file: uploading it answers a preview, and nothing changes yet. */
export const UploadForm = forwardRef<HTMLInputElement, { orgId: string; onPreview: (preview: RosterImport) => void }>(function UploadForm({ orgId, onPreview }, fileRef) {
  const [aides, setAides] = useState<Aides>('skip');
  const [consoleAdmins, setConsoleAdmins] = useState(false);
  const [licence, setLicence] = useState<Licence>('none');
  const [licenceName, setLicenceName] = useState('');
  const [allOrNothing, setAllOrNothing] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const once = useSubmitOnce();
  const upload = useUploadRoster(orgId, {
    onSuccess: (preview) => onPreview(preview),
    onError: (error) => setRefused(userFacingMessage(error) ?? 'The file could not be uploaded'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefused(null);
    const missingFile = file ? null : 'Choose the OneRoster zip to upload';
    const missingName = licence === 'named' && !licenceName.trim() ? 'Enter the licence’s name' : null;
    setFileError(missingFile);
    setNameError(missingName);
    if (!file || missingName) return;
    const options: RosterUploadQuery = {
      fileName: file.name.slice(0, FILE_NAME_MAX) || 'roster.zip',
      aides,
      consoleAdmins: consoleAdmins ? 'true' : 'false',
      licence,
      licenceName: licence === 'named' ? licenceName.trim() : '',
      allOrNothing: allOrNothing ? 'true' : 'false',
    };
    void once.submit((idempotencyKey) => upload.mutateAsync({ file, options, idempotencyKey })).catch(() => undefined);
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="roster-upload-title">
      <Title order={2} size="h3" id="roster-upload-title">
        Upload
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Radio.Group label="Aides" value={aides} onChange={(value) => setAides(value as Aides)}>
            <Group gap="md" mt={4}>
              <Radio value="skip" label="Skip them" />
              <Radio value="teacher" label="Add them as teachers" />
            </Group>
          </Radio.Group>
          <Checkbox
            label="Administrators become console admins"
            description="Principals and site and district administrators are always added as teachers; tick this to make them admins of their organisation too."
            checked={consoleAdmins}
            onChange={(event) => setConsoleAdmins(event.currentTarget.checked)}
          />
          <Radio.Group label="Licence for new members" value={licence} onChange={(value) => setLicence(value as Licence)}>
            <Stack gap={6} mt={4}>
              <Radio value="none" label="None" />
              <Radio value="named" label="A named licence" />
              <Radio value="bySchool" label="Their school’s licence (when it has exactly one)" />
            </Stack>
          </Radio.Group>
          {licence === 'named' ? (
            <TextInput label="Licence name" required maw={480} value={licenceName} error={nameError} onChange={(event) => setLicenceName(event.currentTarget.value)} />
          ) : null}
          <Checkbox
            label="All or nothing"
            description="Apply nothing if the file has any error. Otherwise rows with errors are left out and the others are applied."
            checked={allOrNothing}
            onChange={(event) => setAllOrNothing(event.currentTarget.checked)}
          />
          <Input.Wrapper
            id="roster-file"
            label="OneRoster zip"
            description="The OneRoster 1.2 (or 1.1) CSV export of your student information system, as one zip (at most 100 MB)."
            error={fileError}
          >
            <input
              ref={fileRef}
              id="roster-file"
              type="file"
              accept=".zip,application/zip"
              aria-describedby="roster-file-description"
              aria-invalid={fileError ? true : undefined}
              style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setFileError(null);
              }}
            />
          </Input.Wrapper>
          {refused ? (
            <Alert color="red" role="alert" title="The file could not be read">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {refused}
              </Text>
              <Text size="sm">Nothing was changed.</Text>
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={once.busy}>
              Upload and preview
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
});
