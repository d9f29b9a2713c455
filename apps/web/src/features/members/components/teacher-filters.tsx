import { Button, Group, Select } from '@mantine/core';
import type { OrganisationLicense } from '@quire/core';
import type { TeacherFilters } from '../api/get-teachers.js';

export interface TeacherFiltersBarProps {
  filters: TeacherFilters;
  licenses: OrganisationLicense[];
  onChange: (filters: TeacherFilters) => void;
  /** A district's list: its organisations (the district first, then its schools) for the School filter. */
  schools?: ReadonlyArray<{ id: string; name: string }>;
  /** Only the School filter (the Inactive tab of a district's list). */
  schoolOnly?: boolean;
}

const ANY = 'any';

const SIGNED_UP = [
  { value: ANY, label: 'All' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

const CERTIFICATION = [
  { value: ANY, label: 'All' },
  { value: 'complete', label: 'Complete' },
  { value: 'in-progress', label: 'In progress' },
  { value: 'none', label: 'None' },
];

/**
 * The Active list's filters: Signed up, License and Certification, the questions every autumn starts
 * with ('who has not signed up yet?'). Each is a labelled select whose first choice, 'All', is no filter.
 */
export function TeacherFiltersBar({ filters, licenses, onChange, schools, schoolOnly = false }: TeacherFiltersBarProps) {
  const licenseOptions = [{ value: ANY, label: 'All' }, ...licenses.map((l) => ({ value: l.id, label: l.name })), { value: 'none', label: 'No license' }];
  const set = <K extends keyof TeacherFilters>(key: K, value: string | null) =>
    onChange({ ...filters, [key]: value === null || value === ANY ? undefined : (value as TeacherFilters[K]) });
  const active = Object.values(filters).some((v) => v !== undefined);

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" mb="sm" role="group" aria-label="Filter teachers">
      {schools ? (
        <Select
          label="School"
          data={[{ value: ANY, label: 'All' }, ...schools.map((s) => ({ value: s.id, label: s.name }))]}
          value={filters.school ?? ANY}
          onChange={(v) => set('school', v)}
          allowDeselect={false}
          searchable={schools.length > 8}
          w={240}
        />
      ) : null}
      {schoolOnly ? null : (
        <>
          <Select label="Signed up" data={SIGNED_UP} value={filters.signedUp ?? ANY} onChange={(v) => set('signedUp', v)} allowDeselect={false} w={130} />
          <Select label="License" data={licenseOptions} value={filters.license ?? ANY} onChange={(v) => set('license', v)} allowDeselect={false} w={200} />
          <Select
            label="Certification"
            data={CERTIFICATION}
            value={filters.certification ?? ANY}
            onChange={(v) => set('certification', v)}
            allowDeselect={false}
            w={160}
          />
        </>
      )}
      {active ? (
        <Button variant="subtle" color="gray" onClick={() => onChange({})}>
          Clear filters
        </Button>
      ) : null}
    </Group>
  );
}
