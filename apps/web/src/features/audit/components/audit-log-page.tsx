import { Alert, Button, Group, MultiSelect, NumberInput, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  AUDIT_ACTIONS,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  AUDIT_SEARCH_MAX,
  auditActions,
  errorCatalogue,
  type AuditEvent,
  type AuditOutcome,
} from '@quire/core';
import { IconDownload, IconFilterOff } from '@tabler/icons-react';
import { useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/ui/load-error.js';
import { PageTitle } from '../../../components/ui/page-title.js';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { SectionLoader } from '../../../components/ui/section-loader.js';
import { organisationsUnder } from '../../../lib/access/organisations-under.js';
import { hasErrorCode, userFacingMessage } from '../../../lib/api/index.js';
import { notifyError, notifyInfo } from '../../../lib/notify.js';
import { saveFile } from '../../../lib/save-file.js';
import { useSession } from '../../../lib/session/index.js';
import { fetchAuditCsv, NO_FILTERS, useAuditEvents, type AuditFilterValues } from '../api/audit-events.js';
import { useAuditRetention, useUpdateAuditRetention } from '../api/audit-retention.js';
import { AuditEntryDialog } from './audit-entry-dialog.js';
import { actorText, LocalTime } from './audit-text.js';

const actionChoices = AUDIT_ACTIONS.map((value) => ({ value, label: auditActions[value].label }));
const outcomeChoices = [
  { value: 'success', label: 'Success' },
  { value: 'refused', label: 'Refused' },
];

function filtersFrom(params: URLSearchParams): AuditFilterValues {
  const outcome = params.get('outcome');
  return {
    actor: params.get('actor') ?? '',
    actions: (params.get('action') ?? '').split(',').filter((a) => (AUDIT_ACTIONS as readonly string[]).includes(a)),
    target: params.get('target') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    outcome: outcome === 'success' || outcome === 'refused' ? outcome : '',
    school: params.get('school') ?? '',
  };
}

function paramsFrom(filters: AuditFilterValues): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.actor.trim()) params.set('actor', filters.actor.trim());
  if (filters.actions.length) params.set('action', filters.actions.join(','));
  if (filters.target.trim()) params.set('target', filters.target.trim());
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.outcome) params.set('outcome', filters.outcome);
  if (filters.school) params.set('school', filters.school);
  return params;
}

const isFiltered = (f: AuditFilterValues) => paramsFrom(f).size > 0;

/** The School filter's choice for "every organisation of the district". */
const ALL_SCHOOLS = 'all';

/** The organisation's audit log (docs/audit-log.md): every change, newest first, filtered, exported. Admins only. */
export function AuditLogPage() {
  const session = useSession();
  const orgId = session.currentOrganisation?.id ?? '';
  const [params, setParams] = useSearchParams();
  const applied = filtersFrom(params);
  const [draft, setDraft] = useState<AuditFilterValues>(applied);
  const [draftKey, setDraftKey] = useState(params.toString());
  // The URL changed from elsewhere (back, a link): the form shows what it holds.
  if (draftKey !== params.toString()) {
    setDraftKey(params.toString());
    setDraft(applied);
  }
  const events = useAuditEvents(orgId, applied);
  // A district's log holds its schools' entries: the School filter lists the district, then each organisation under it.
  const below = useMemo(() => organisationsUnder(session.organisations, orgId), [session.organisations, orgId]);
  const schoolChoices = useMemo(
    () =>
      below.length
        ? [
            { value: ALL_SCHOOLS, label: 'All schools' },
            { value: orgId, label: session.currentOrganisation?.name ?? orgId },
            ...below.map((o) => ({ value: o.id, label: o.name })),
          ]
        : null,
    [below, orgId, session.currentOrganisation?.name],
  );
  const [open, setOpen] = useState<AuditEvent | null>(null);
  const [exporting, setExporting] = useState(false);
  const rows = events.data?.pages.flatMap((p) => p.events) ?? [];
  const district = events.data?.pages[0]?.hasOrganisationsBelow ?? false;
  const { ref: tableRoom, narrow } = useTableRoom();
  const forbidden = events.isError && hasErrorCode(events.error, 'admin_required', 'organisation_forbidden');
  const invalid = events.isError && hasErrorCode(events.error, 'validation_error');

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams(paramsFrom(draft));
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setParams(new URLSearchParams());
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      const blob = await fetchAuditCsv(orgId, applied);
      saveFile(blob, 'audit-log.csv');
    } catch (error) {
      notifyError(userFacingMessage(error) ?? 'The audit log could not be exported');
    } finally {
      setExporting(false);
    }
  };

  if (forbidden) {
    return (
      <>
        <PageTitle>Audit log</PageTitle>
        <Alert color="red" role="alert" title={errorCatalogue.admin_required.message}>
          Only the organisation’s admins can read its audit log.
        </Alert>
      </>
    );
  }

  return (
    <>
      <Group justify="space-between" align="flex-start">
        <PageTitle>Audit log</PageTitle>
        <Button leftSection={<IconDownload size={18} aria-hidden />} onClick={() => void exportCsv()} loading={exporting} disabled={!events.isSuccess}>
          Export CSV
        </Button>
      </Group>
      <Text size="sm" mb="md">
        Every change made in this organisation{district ? ' and its schools' : ''}: who made it, when, and what it changed.
      </Text>

      <Paper withBorder p="sm" mb="md" component="form" onSubmit={apply} aria-label="Filters">
        <Group align="flex-end" gap="sm" wrap="wrap">
          {schoolChoices ? (
            <Select
              label="School"
              data={schoolChoices}
              value={draft.school || ALL_SCHOOLS}
              onChange={(value) => setDraft({ ...draft, school: !value || value === ALL_SCHOOLS ? '' : value })}
              allowDeselect={false}
              searchable={schoolChoices.length > 8}
              w={{ base: '100%', sm: 240 }}
            />
          ) : null}
          <TextInput
            label="Actor"
            placeholder="E-mail or name"
            maxLength={AUDIT_SEARCH_MAX}
            value={draft.actor}
            onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })}
            w={{ base: '100%', sm: 200 }}
          />
          <MultiSelect
            label="Action"
            placeholder={draft.actions.length ? undefined : 'Any action'}
            data={actionChoices}
            value={draft.actions}
            onChange={(actions) => setDraft({ ...draft, actions })}
            searchable
            clearable
            w={{ base: '100%', sm: 260 }}
          />
          <TextInput
            label="Target"
            placeholder="E-mail or name"
            maxLength={AUDIT_SEARCH_MAX}
            value={draft.target}
            onChange={(e) => setDraft({ ...draft, target: e.currentTarget.value })}
            w={{ base: '100%', sm: 200 }}
          />
          <TextInput label="From" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} w={{ base: '47%', sm: 160 }} />
          <TextInput label="To" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} w={{ base: '47%', sm: 160 }} />
          <Select
            label="Outcome"
            placeholder="Any outcome"
            data={outcomeChoices}
            value={draft.outcome || null}
            onChange={(value) => setDraft({ ...draft, outcome: (value ?? '') as AuditOutcome | '' })}
            clearable
            w={{ base: '100%', sm: 150 }}
          />
          <Group gap="xs">
            <Button type="submit">Apply filters</Button>
            <Button variant="default" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={clear} disabled={!isFiltered(applied) && !isFiltered(draft)}>
              Clear filters
            </Button>
          </Group>
        </Group>
      </Paper>

      {events.isPending ? (
        <SectionLoader label="Loading the audit log" />
      ) : events.isError ? (
        <LoadError title={invalid ? 'These filters are not valid' : 'Something went wrong loading the audit log'} onRetry={() => events.refetch()}>
          {userFacingMessage(events.error) ?? undefined}
        </LoadError>
      ) : rows.length === 0 ? (
        <Paper withBorder p="xl" role="status">
          <Text fw={600}>{isFiltered(applied) ? 'No entries match these filters' : 'No entries yet'}</Text>
          <Text size="sm">{isFiltered(applied) ? 'Review the filters, or clear them to see every entry.' : 'Changes made in this organisation will appear here.'}</Text>
        </Paper>
      ) : (
        <Stack gap="sm">
          <TableFrame ref={tableRoom}>
            <Table.ScrollContainer minWidth={0}>
              <Table striped highlightOnHover aria-label="Audit log entries" data-testid="audit-table" verticalSpacing="xs" horizontalSpacing={narrow ? 6 : 'xs'}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Time</Table.Th>
                    {district && !narrow ? <Table.Th scope="col">School</Table.Th> : null}
                    {narrow ? null : <Table.Th scope="col">Actor</Table.Th>}
                    <Table.Th scope="col">Action</Table.Th>
                    {narrow ? null : (
                      <>
                        <Table.Th scope="col">Target</Table.Th>
                        <Table.Th scope="col">Details</Table.Th>
                        <Table.Th scope="col">IP</Table.Th>
                      </>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((entry) => (
                    <Table.Tr key={entry.id} data-entry-id={entry.id}>
                      <Table.Td w={narrow ? 96 : undefined}>
                        <LocalTime iso={entry.time} />
                      </Table.Td>
                      {district && !narrow ? <Table.Td>{entry.organisationName}</Table.Td> : null}
                      {narrow ? null : <Table.Td style={{ overflowWrap: 'anywhere' }}>{actorText(entry)}</Table.Td>}
                      <Table.Td>
                        <Button variant="subtle" size="compact-sm" px={4} onClick={() => setOpen(entry)} styles={{ root: { height: 'auto', minHeight: 26 }, label: { whiteSpace: 'normal', textAlign: 'left' } }}>
                          {entry.actionText}
                        </Button>
                        {entry.outcome === 'refused' ? (
                          <Text size="xs" c="red.9">
                            Refused{entry.errorCode ? `: ${entry.errorCode}` : ''}
                          </Text>
                        ) : null}
                        {narrow ? (
                          // The columns a phone has no room for, named as their columns are, under the action.
                          <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                            {narrowDetails(entry, district).join(' · ')}
                          </Text>
                        ) : null}
                      </Table.Td>
                      {narrow ? null : (
                        <>
                          <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.targetText}</Table.Td>
                          <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.changeText}</Table.Td>
                          <Table.Td>{entry.ip ?? ''}</Table.Td>
                        </>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </TableFrame>
          {events.hasNextPage ? (
            <Group justify="center">
              <Button variant="default" onClick={() => void events.fetchNextPage()} loading={events.isFetchingNextPage}>
                Show older entries
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}

      {/* Below the log: what an admin comes for is the entries; how long they are kept is set once. */}
      <RetentionPanel orgId={orgId} />

      <AuditEntryDialog entry={open} district={district} onClose={() => setOpen(null)} />
    </>
  );
}

/** What a narrow table shows under the action: the dropped columns' values, each named as its column is. */
function narrowDetails(entry: AuditEvent, district: boolean): string[] {
  return [
    `Actor: ${actorText(entry)}`,
    ...(district ? [`School: ${entry.organisationName}`] : []),
    ...(entry.targetText ? [`Target: ${entry.targetText}`] : []),
    ...(entry.changeText ? [`Details: ${entry.changeText}`] : []),
    ...(entry.ip ? [`IP: ${entry.ip}`] : []),
  ];
}

/** How long entries are kept, changeable by the admins (the change is itself an entry). */
function RetentionPanel({ orgId }: { orgId: string }) {
  const retention = useAuditRetention(orgId);
  const [days, setDays] = useState<number | string>('');
  const update = useUpdateAuditRetention(orgId, {
    onSuccess: (answer) => notifyInfo(`Entries are now kept for ${answer.retentionDays} days`),
    onError: (error) => notifyError(userFacingMessage(error) ?? 'The retention period could not be changed'),
  });
  if (!retention.data) return null;
  const value = days === '' ? retention.data.retentionDays : days;
  const valid = typeof value === 'number' && Number.isInteger(value) && value >= AUDIT_RETENTION_MIN_DAYS && value <= AUDIT_RETENTION_MAX_DAYS;
  return (
    <Paper withBorder p="sm" mt="md" component="form" aria-label="Retention" onSubmit={(e: FormEvent) => {
      e.preventDefault();
      if (valid && value !== retention.data.retentionDays) update.mutate(value);
    }}>
      <Group align="flex-end" gap="sm">
        <NumberInput
          label="Keep entries for (days)"
          description={`From ${AUDIT_RETENTION_MIN_DAYS} days to 7 years (${AUDIT_RETENTION_MAX_DAYS} days); older entries are deleted daily.`}
          min={AUDIT_RETENTION_MIN_DAYS}
          max={AUDIT_RETENTION_MAX_DAYS}
          allowDecimal={false}
          value={value}
          onChange={setDays}
          error={valid ? undefined : `Enter a number of days from ${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS}`}
          w={{ base: '100%', sm: 320 }}
        />
        <Button type="submit" variant="default" loading={update.isPending} disabled={!valid || value === retention.data.retentionDays}>
          Save retention
        </Button>
      </Group>
    </Paper>
  );
}
