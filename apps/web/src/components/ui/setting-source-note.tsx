import { Button, Group, Text } from '@mantine/core';
import { settingPolicyMessages, type OrganisationRef } from '@quire/core';

/** Where a setting's value comes from, as the server answered it (a source of GET …/settings?include=sources). */
export interface SettingSourceView<V> {
  from: 'own' | 'locked' | 'default' | 'built-in';
  setBy: OrganisationRef | null;
  inheritedDefault: { value: V; setBy: OrganisationRef } | null;
}

export interface SettingSourceNoteProps<V> {
  /** The id the control's aria-describedby names. */
  id: string;
  source: SettingSourceView<V> | undefined;
  /** The label of a value ('Disabled for everyone'). */
  labelOf: (value: V) => string;
  /** The setting's name, for the accessible name of 'Use district default'. */
  settingName: string;
  /** Offered when the organisation's own value differs from its district's default and the actor may change it. */
  onUseDefault?: () => void;
}

/**
 * The words under a setting set by a district: who set it and who may change it ('Set by {district}. Only district
 * admins can change this.'), the district default the school follows, or the one it chose not to follow; null when
 * nothing above has a say. In words, not only in the control's grey.
 */
export function sourceNote<V>(source: SettingSourceView<V> | undefined, labelOf: (value: V) => string): string | null {
  if (!source) return null;
  if (source.from === 'locked' && source.setBy) return settingPolicyMessages.locked(source.setBy.name);
  if (source.from === 'default' && source.setBy) return settingPolicyMessages.followsDefault(source.setBy.name);
  if (source.from === 'own' && source.inheritedDefault) {
    return settingPolicyMessages.overridesDefault(source.inheritedDefault.setBy.name, labelOf(source.inheritedDefault.value));
  }
  return null;
}

export interface UseDefaultButtonProps<V> {
  source: SettingSourceView<V> | undefined;
  settingName: string;
  onUseDefault?: () => void;
}

/** 'Use district default', offered when the organisation's own value stands against its district's default. */
export function UseDefaultButton<V>({ source, settingName, onUseDefault }: UseDefaultButtonProps<V>) {
  if (!onUseDefault || source?.from !== 'own' || !source.inheritedDefault) return null;
  return (
    <Button variant="subtle" size="compact-xs" mt={2} ml={-6} onClick={onUseDefault} aria-label={`${settingPolicyMessages.useDistrictDefault}: ${settingName}`}>
      {settingPolicyMessages.useDistrictDefault}
    </Button>
  );
}

/** The note and the button for a control that names the note itself (a Switch adds `id` to its aria-describedby). */
export function SettingSourceNote<V>({ id, source, labelOf, settingName, onUseDefault }: SettingSourceNoteProps<V>) {
  const note = sourceNote(source, labelOf);
  if (!note) return null;
  return (
    <Group gap={4} wrap="wrap" align="center">
      <Text id={id} size="xs" c="dimmed">
        {note}
      </Text>
      <UseDefaultButton source={source} settingName={settingName} onUseDefault={onUseDefault} />
    </Group>
  );
}
