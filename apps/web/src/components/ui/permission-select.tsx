import { NativeSelect } from '@mantine/core';
import { useRef, useState, type KeyboardEvent } from 'react';

export interface PermissionSelectProps {
  label: string;
  /** The saved value. */
  value: string;
  data: Array<{ value: string; label: string }>;
  /** Called once per choice made: a pick from the list, or Enter (or leaving the control) after the arrow keys. */
  onCommit: (value: string) => void;
  /** Disabled: a reader, or a setting locked by a district (say why with describedBy). */
  readOnly?: boolean;
  /** The text under the control that explains its value (who set it, who may change it): its accessible description. */
  description?: string | null;
  /** A value set by a district shows greyed (a filled control), enabled while the school may still change it. */
  inherited?: boolean;
}

/** Keys that change a closed native select's value in place (Windows and Linux browsers), one change event each. */
const STEP_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);
const isStep = (event: KeyboardEvent) => !event.altKey && !event.ctrlKey && !event.metaKey && (STEP_KEYS.has(event.key) || (event.key.length === 1 && event.key !== ' '));

/**
 * A native select whose keyboard steps are not saved one by one. A closed select changes its value on every arrow key,
 * so saving on each change saved every choice passed on the way; here those steps only show, and the one chosen is
 * saved on Enter or when focus leaves the control, while a pick from the opened list is saved at once. Escape puts the
 * saved value back. The control is never disabled while saving, so focus stays on it.
 */
export function PermissionSelect({ label, value, data, onCommit, readOnly, description, inherited }: PermissionSelectProps) {
  const [draft, setDraft] = useState<string | null>(null);
  // Set between a step key's keydown and keyup: the change event it causes fires in between.
  const stepping = useRef(false);
  const commit = () => {
    if (draft !== null && draft !== value) onCommit(draft);
    setDraft(null);
  };
  return (
    <NativeSelect
      size="xs"
      aria-label={label}
      // Mantine names its description in aria-describedby (an aria-describedby of our own would be replaced).
      description={description ?? undefined}
      inputWrapperOrder={['label', 'input', 'description']}
      variant={inherited ? 'filled' : 'default'}
      value={draft ?? value}
      data={data}
      disabled={readOnly}
      onKeyDown={(event) => {
        stepping.current = isStep(event);
        if (event.key === 'Enter' && draft !== null) {
          event.preventDefault();
          commit();
        } else if (event.key === 'Escape' && draft !== null) {
          event.stopPropagation();
          setDraft(null);
        }
      }}
      onKeyUp={() => {
        stepping.current = false;
      }}
      onBlur={commit}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (stepping.current) setDraft(next);
        else {
          setDraft(null);
          if (next !== value) onCommit(next);
        }
      }}
    />
  );
}
