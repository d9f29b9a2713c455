import { TextInput } from '@mantine/core';

export interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field; undefined until the person has tried to go on. */
  error: string | null | undefined;
  autoFocus?: boolean;
}

/** The sign-in screens' Email field: the browser's address keyboard and autofill. */
export function EmailField({ value, onChange, error, autoFocus }: EmailFieldProps) {
  return (
    <TextInput
      label="Email"
      type="email"
      autoComplete="email"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      autoFocus={autoFocus}
      required
    />
  );
}
