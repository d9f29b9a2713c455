import { Checkbox, ScrollArea, Select, Stack, Text } from '@mantine/core';
import { available, canTickLicense, formatCount, showSelectAll, type OrganisationLicense } from '@quire/core';

/** Entries drawn one by one; beyond this the list says how many more there are (Select all still covers them). */
const IMPORT_LIST_SHOWN = 200;

export interface ImportLicensePickerProps {
  emails: string[];
  /** Licences with seats left that can be given individually. */
  licenses: OrganisationLicense[];
  licenseId: string | null;
  onLicenseChange: (id: string) => void;
  ticked: ReadonlySet<string>;
  onTickedChange: (ticked: Set<string>) => void;
}

/**
 * Per-e-mail licence ticks (spec §5): a box can be ticked only while licences remain, and 'Select
 * all' appears when the available licences cover every entry.
 */
export function ImportLicensePicker({ emails, licenses, licenseId, onLicenseChange, ticked, onTickedChange }: ImportLicensePickerProps) {
  const license = licenses.find((l) => l.id === licenseId) ?? null;
  const availableCount = license ? Math.max(0, available(license)) : 0;
  const toggle = (email: string, checked: boolean) => {
    const next = new Set(ticked);
    if (checked) next.add(email);
    else next.delete(email);
    onTickedChange(next);
  };
  const allTicked = emails.length > 0 && emails.every((e) => ticked.has(e));

  return (
    <Stack gap="xs">
      <Select
        label="License to assign"
        data={licenses.map((l) => ({ value: l.id, label: `${l.name} (${formatCount(Math.max(0, available(l)))} available)` }))}
        value={licenseId}
        onChange={(value) => value && onLicenseChange(value)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      {license && showSelectAll(availableCount, emails.length) ? (
        <Checkbox
          label="Select all"
          checked={allTicked}
          indeterminate={!allTicked && ticked.size > 0}
          onChange={(event) => onTickedChange(event.currentTarget.checked ? new Set(emails) : new Set())}
        />
      ) : null}
      <Text size="xs" c="dimmed">
        {ticked.size} of {availableCount} available licenses ticked
      </Text>
      <ScrollArea.Autosize mah={260} type="auto">
        <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Give a license to">
          {emails.slice(0, IMPORT_LIST_SHOWN).map((email) => {
            const isTicked = ticked.has(email);
            return (
              <li key={email}>
                <Checkbox
                  label={email}
                  checked={isTicked}
                  disabled={!license || !canTickLicense(availableCount, ticked.size, isTicked)}
                  onChange={(event) => toggle(email, event.currentTarget.checked)}
                />
              </li>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
      {emails.length > IMPORT_LIST_SHOWN ? (
        <Text size="xs" c="dimmed">
          and {emails.length - IMPORT_LIST_SHOWN} more
        </Text>
      ) : null}
    </Stack>
  );
}
