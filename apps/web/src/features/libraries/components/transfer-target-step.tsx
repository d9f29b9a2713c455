import { Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { targetAdminsQueryOptions } from '../api/get-target-admins.js';
import { targetTeachersQueryOptions } from '../api/get-target-teachers.js';
import { adminTargetOptions, teacherTargetOptions, type TargetOption } from '../model/transfer-choices.js';
import type { TeacherRef } from '../model/teacher-ref.js';

export interface TransferTargetStepProps {
  orgId: string;
  kind: 'teacher' | 'admin';
  /** The teachers being managed: never their own target. */
  teachers: TeacherRef[];
  value: TargetOption | null;
  onChange: (target: TargetOption | null) => void;
  error?: string | null;
}

/** How long typing pauses before the teacher search goes to the server. */
const SEARCH_DEBOUNCE_MS = 250;

/** Step 2 for the assign choices: the teacher (searched on the server) or the admin who receives the libraries. */
export function TransferTargetStep({ orgId, kind, teachers, value, onChange, error }: TransferTargetStepProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // While an option is chosen the box shows its label: search for everyone again rather than that text.
  const teacherSearch = value && search === value.label ? '' : debounced;
  const teacherQuery = useQuery({ ...targetTeachersQueryOptions(orgId, teacherSearch), enabled: kind === 'teacher' });
  const adminQuery = useQuery({ ...targetAdminsQueryOptions(orgId), enabled: kind === 'admin' });
  const excludedIds = useMemo(() => new Set(teachers.map((t) => t.id)), [teachers]);
  const excludedEmails = useMemo(() => new Set(teachers.map((t) => t.email.toLowerCase())), [teachers]);

  const options: TargetOption[] =
    kind === 'teacher' ? teacherTargetOptions(teacherQuery.data?.members ?? [], excludedIds) : adminTargetOptions(adminQuery.data ?? [], excludedEmails);
  // More matches than one page: say so, rather than letting the list look complete.
  const shown = teacherQuery.data?.members.length ?? 0;
  const more = kind === 'teacher' && teacherQuery.data && teacherQuery.data.total > shown ? `Showing ${shown} of ${teacherQuery.data.total} teachers: type to search` : null;
  // The chosen option stays listed even when a new search no longer finds it.
  const data = value && !options.some((o) => o.value === value.value) ? [value, ...options] : options;
  const query = kind === 'teacher' ? teacherQuery : adminQuery;
  const label = kind === 'teacher' ? 'Teacher' : 'Admin';

  return (
    <>
      <Text size="sm">
        {kind === 'teacher'
          ? 'Choose the teacher who becomes the owner of the libraries. Pending teachers cannot receive libraries.'
          : 'Choose the admin who becomes the owner of the libraries.'}
      </Text>
      <Select
        label={label}
        placeholder={kind === 'teacher' ? 'Search by email or name' : 'Choose an admin'}
        withAsterisk
        searchable
        data={data}
        value={value?.value ?? null}
        onChange={(next) => onChange(data.find((o) => o.value === next) ?? null)}
        searchValue={search}
        onSearchChange={setSearch}
        // The server already filtered the teachers; admins are filtered here.
        filter={kind === 'teacher' ? ({ options: all }) => all : undefined}
        nothingFoundMessage={query.isFetching ? 'Searching…' : query.isError ? 'The list could not be loaded' : kind === 'teacher' ? 'No teachers found' : 'No admins found'}
        error={error ?? undefined}
        description={more ?? undefined}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
    </>
  );
}
