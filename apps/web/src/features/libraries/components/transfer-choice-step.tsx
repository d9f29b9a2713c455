import { Radio, Stack, Text } from '@mantine/core';
import { MY_BOOKS_STAYS_TEXT, possessive, transferChoices, type TransferChoice } from '../model/transfer-choices.js';

export interface TransferChoiceStepProps {
  value: TransferChoice | null;
  onChange: (choice: TransferChoice) => void;
  error?: string | null;
  /** Who the choice is about, for the group's label: the teacher's name, or e.g. '2 teachers'. */
  subject: string;
  /** How many teachers the choice is about. */
  count: number;
  /** The wizard's mode: what happens to My Books differs. */
  mode: 'manage' | 'delete';
}

/** Step 1: what happens to the teacher's libraries. */
export function TransferChoiceStep({ value, onChange, error, subject, count, mode }: TransferChoiceStepProps) {
  return (
    <Stack gap="sm">
      <Radio.Group
        label={`What should happen to ${possessive(subject, count)} libraries?`}
        value={value}
        onChange={(next) => onChange(next as TransferChoice)}
        error={error ?? undefined}
        withAsterisk
      >
        <Stack gap="sm" mt="sm">
          {transferChoices(mode).map((choice, index) => (
            <Radio
              key={choice.value}
              value={choice.value}
              label={choice.label}
              description={choice.description}
              data-autofocus={index === 0 ? true : undefined}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Text size="sm">{MY_BOOKS_STAYS_TEXT(subject, mode, count)}</Text>
    </Stack>
  );
}
