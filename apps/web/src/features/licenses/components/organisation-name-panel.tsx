import { Paper, TextInput } from '@mantine/core';
import { ORGANISATION_NAME_MAX, organisationMessages, organisationNameChange } from '@quire/core';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { notifyError } from '../../../lib/notify.js';
import { useRenameOrganisation } from '../api/rename-organisation.js';

export interface OrganisationNamePanelProps {
  orgId: string;
  /** The saved name. */
  name: string;
  /** Library managers see the name but cannot change it. */
  readOnly?: boolean;
  /** Whether read-only means "only an admin can change it" (false while who may change it is not known yet). */
  explainReadOnly?: boolean;
  /** Called with the new name once the server has saved it. */
  onRenamed?: (name: string) => void;
}

/** Designed: why a library manager cannot change the name. */
const READ_ONLY_NOTE = 'Only an admin of the organisation can change its name';

/**
 * The editable organisation name (spec §2, §5): at most 128 characters, trimmed, saved on blur when
 * changed; an empty name is refused and the old one restored.
 */
export function OrganisationNamePanel({ orgId, name, readOnly = false, explainReadOnly = true, onRenamed }: OrganisationNamePanelProps) {
  const [value, setValue] = useState(name);
  const focused = useRef(false);
  const cancelled = useRef(false);
  const rename = useRenameOrganisation(orgId);

  // A name saved elsewhere (another tab, the session) shows unless the admin is typing.
  useEffect(() => {
    if (!focused.current) setValue(name);
  }, [name]);

  const save = () => {
    focused.current = false;
    if (readOnly) return;
    if (cancelled.current) {
      cancelled.current = false;
      setValue(name);
      return;
    }
    const change = organisationNameChange(name, value);
    if (change.action === 'restore') {
      setValue(name);
      notifyError(change.error);
      return;
    }
    if (change.action === 'none') {
      setValue(name);
      return;
    }
    setValue(change.name);
    rename.mutate(change.name, {
      onSuccess: (renamed) => {
        setValue(renamed.name);
        onRenamed?.(renamed.name);
      },
      onError: () => {
        setValue(name);
        notifyError(organisationMessages.renameFailed);
      },
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter saves like leaving the field; Escape gives up the edit.
    if (event.key === 'Enter') event.currentTarget.blur();
    if (event.key === 'Escape') {
      cancelled.current = true;
      event.currentTarget.blur();
    }
  };

  return (
    <Paper withBorder p="md" mb="lg">
      <TextInput
        label="Organisation name"
        // Read-only for library managers: drawn as such, and it says who can change it.
        description={readOnly ? (explainReadOnly ? READ_ONLY_NOTE : undefined) : 'Saved when you leave the field'}
        variant={readOnly ? 'filled' : 'default'}
        value={value}
        maxLength={ORGANISATION_NAME_MAX}
        readOnly={readOnly}
        disabled={rename.isPending}
        onFocus={() => {
          focused.current = true;
        }}
        onChange={(event) => setValue(event.currentTarget.value)}
        onBlur={save}
        onKeyDown={onKeyDown}
      />
    </Paper>
  );
}
