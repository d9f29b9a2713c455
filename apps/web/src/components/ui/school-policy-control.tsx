import { Checkbox, Stack, Text } from '@mantine/core';
import { settingPolicyMessages, type SettingPolicyMode } from '@quire/core';
import { PermissionSelect } from './permission-select.js';

/** The option that means 'Let schools decide' (no policy). */
const DECIDE = 'decide';

export interface SchoolPolicyControlProps {
  /** The setting's name ('GIPHY', 'Image search'): the controls' accessible names end with it. */
  settingName: string;
  /** The values a district may apply, as option values (strings) and labels. */
  choices: Array<{ value: string; label: string }>;
  /** The district's policy, value as an option value; null: 'Let schools decide'. */
  policy: { mode: SettingPolicyMode; value: string } | null;
  /** A reader, or a setting locked above the district. */
  disabled?: boolean;
  /** Why it is disabled (a lock above the district): the select's accessible description. */
  description?: string | null;
  onChange: (policy: { mode: SettingPolicyMode; value: string } | null) => void;
}

/**
 * At a district, per setting: 'Let schools decide', or a value applied to every school, a default they may override or,
 * with 'Lock for schools', locked. The select saves like Manage Apps' permissions (a pick at once; with the keyboard,
 * Enter or leaving it), the checkbox at once.
 */
export function SchoolPolicyControl({ settingName, choices, policy, disabled, description, onChange }: SchoolPolicyControlProps) {
  return (
    <Stack gap={4} mt={6}>
      <Text size="xs" fw={600} aria-hidden>
        {settingPolicyMessages.forSchools}
      </Text>
      <PermissionSelect
        label={`${settingPolicyMessages.forSchools}: ${settingName}`}
        value={policy?.value ?? DECIDE}
        data={[{ value: DECIDE, label: settingPolicyMessages.letSchoolsDecide }, ...choices]}
        readOnly={disabled}
        description={description}
        onCommit={(value) => onChange(value === DECIDE ? null : { mode: policy?.mode ?? 'default', value })}
      />
      {policy ? (
        <Checkbox
          size="xs"
          label={settingPolicyMessages.lockForSchools}
          aria-label={`${settingPolicyMessages.lockForSchools}: ${settingName}`}
          checked={policy.mode === 'locked'}
          disabled={disabled}
          onChange={(event) => onChange({ mode: event.currentTarget.checked ? 'locked' : 'default', value: policy.value })}
        />
      ) : null}
    </Stack>
  );
}
