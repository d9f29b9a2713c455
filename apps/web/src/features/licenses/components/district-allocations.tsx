import { Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatCount, type LicenseAllocation, type OrganisationLicense } from '@quire/core';
import { useState } from 'react';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { ActionsHeader, ColumnHeaders } from '../../../components/ui/table-headers.js';
import { userFacingMessage } from '../../../lib/api/index.js';
import { notifyInfo } from '../../../lib/notify.js';
import { districtFigures } from '../api/get-organisation-licenses.js';
import { useSetLicenseAllocation } from '../api/set-license-allocation.js';
import { AllocationDialog } from './allocation-dialog.js';

const SAVE_FAILED = 'The allocation could not be saved, please try again.';

interface Editing {
  license: OrganisationLicense;
  allocation: LicenseAllocation;
}

/**
 * A district's licences and the seats of each allocated to its schools (docs/districts.md): total, allocated per
 * school with what each has assigned, and what is left. An admin changes a school's allocation in a dialog.
 */
export function DistrictAllocations({ orgId, licenses, canChange }: { orgId: string; licenses: OrganisationLicense[]; canChange: boolean }) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSetLicenseAllocation(orgId);

  const close = () => {
    setEditing(null);
    setServerError(null);
  };
  const onSave = async (seats: number, idempotencyKey: string) => {
    if (!editing) return;
    const { license, allocation } = editing;
    try {
      await save.mutateAsync({ licenseId: license.id, schoolId: allocation.organisationId, seats, idempotencyKey });
    } catch (error) {
      setServerError(userFacingMessage(error) ?? SAVE_FAILED);
      throw error;
    }
    notifyInfo(`${allocation.organisationName}: ${formatCount(seats)} ${seats === 1 ? 'seat' : 'seats'} of ${license.name}`);
    close();
  };

  const target = editing
    ? {
        licenseName: editing.license.name,
        allocation: editing.allocation,
        mostSeats: editing.allocation.seats + Math.max(0, districtFigures(editing.license).available),
      }
    : null;

  return (
    <section aria-labelledby="district-allocations-title">
      <Title order={2} size="h3" id="district-allocations-title" mt="xl" mb="sm">
        Allocated to schools
      </Title>
      <Stack gap="lg">
        {licenses.map((license) => (
          <LicenseAllocations key={license.id} license={license} canChange={canChange} onChange={(allocation) => setEditing({ license, allocation })} />
        ))}
      </Stack>
      <AllocationDialog target={target} serverError={serverError} onSave={onSave} onClose={close} />
    </section>
  );
}

function LicenseAllocations({ license, canChange, onChange }: { license: OrganisationLicense; canChange: boolean; onChange: (allocation: LicenseAllocation) => void }) {
  const { ref, narrow } = useTableRoom();
  const figures = districtFigures(license);
  const header = narrow ? 'xs' : 'sm';
  const titleId = `allocations-${license.id}`;
  return (
    // A phone: less padding and tighter cells, so the four columns fit 390 px without scrolling.
    <Paper withBorder p={narrow ? 'xs' : 'md'}>
      <Title order={3} size="h4" id={titleId}>
        {license.name}
      </Title>
      <Text size="sm" mb="sm">
        {formatCount(license.quantity)} purchased · {formatCount(figures.allocatedToSchools)} allocated to schools · {formatCount(figures.assignedHere)} assigned
        at the district · {formatCount(Math.max(0, figures.available))} not allocated
      </Text>
      <TableFrame ref={ref}>
        <Table.ScrollContainer minWidth={0}>
          <Table verticalSpacing="xs" horizontalSpacing={narrow ? 6 : 'xs'} aria-labelledby={titleId}>
            <Table.Thead>
              <Table.Tr>
                <ColumnHeaders names={['School', 'Allocated', 'Assigned']} fz={header} />
                {canChange ? <ActionsHeader /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(license.allocations ?? []).map((allocation) => (
                <Table.Tr key={allocation.organisationId}>
                  <Table.Th scope="row" fw={400} fz={narrow ? 'sm' : undefined}>
                    {allocation.organisationName}
                  </Table.Th>
                  <Table.Td>{formatCount(allocation.seats)}</Table.Td>
                  <Table.Td>{formatCount(allocation.assigned)}</Table.Td>
                  {canChange ? (
                    <Table.Td>
                      <Button size={narrow ? 'compact-xs' : 'compact-sm'} variant="default" onClick={() => onChange(allocation)} aria-label={`Change allocation of ${license.name} for ${allocation.organisationName}`}>
                        Change
                      </Button>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </TableFrame>
    </Paper>
  );
}
