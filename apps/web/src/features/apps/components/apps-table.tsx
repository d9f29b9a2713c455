import { Badge, Button, Group, LoadingOverlay, Table, Text } from '@mantine/core';
import {
  APP_CATALOGUE,
  APP_PERMISSION_EVERYONE,
  APPS_TABLE_MAX_WIDTH,
  appPermissionChoices,
  effectiveAppPermission,
  TABLE_ROW_HEIGHT,
  type AppCatalogueEntry,
  type AppPermission,
  type AppSettingSource,
  type AppSettingValue,
  type SettingPolicies,
  type SettingPolicy,
} from '@quire/core';
import { PermissionSelect } from '../../../components/ui/permission-select.js';
import { SchoolPolicyControl } from '../../../components/ui/school-policy-control.js';
import { sourceNote, UseDefaultButton } from '../../../components/ui/setting-source-note.js';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';

export interface AppsTableProps {
  apps: Readonly<Record<string, AppPermission | undefined>>;
  /** Apps whose change is being saved: that row shows a loading overlay (the control stays enabled, so focus stays on it). */
  saving: ReadonlySet<string>;
  onChange: (app: AppCatalogueEntry, value: AppPermission | null) => void;
  onPrivacy: (app: AppCatalogueEntry, opener: HTMLButtonElement) => void;
  readOnly?: boolean;
  /** Where each app's value comes from (a district's lock or default); absent for a stand-alone answer. */
  sources?: Partial<Record<string, AppSettingSource>>;
  /** 'Use district default' of an app whose own value differs from its district's default. */
  onUseDefault?: (app: AppCatalogueEntry) => void;
  /** At a district: its policies for its schools, and their change. */
  policies?: SettingPolicies['apps'];
  onPolicy?: (app: AppCatalogueEntry, policy: SettingPolicy<AppSettingValue> | null) => void;
}

const UNSET = 'unset';
const toOption = (value: AppPermission | null) => (value === null ? UNSET : String(value));
const fromOption = (value: string): AppPermission | null => (value === UNSET ? null : (Number(value) as AppPermission));

/**
 * Below this much room (a phone) the Privacy column is dropped and each app's Details button shows under its name, so
 * the Permissions choice is whole on screen instead of cut off at the window's edge.
 */
const NARROW_APPS_TABLE_MAX_WIDTH = 480;

/** The label of an app's value as a district applies it (0: 'Teachers and students'). */
function appValueLabel(app: AppCatalogueEntry, value: AppSettingValue): string {
  const wanted = value === APP_PERMISSION_EVERYONE ? null : value;
  return appPermissionChoices(app).find((c) => c.value === effectiveAppPermission(app, wanted))?.label ?? '';
}

/**
 * Manage Apps table (spec §2): App, Privacy, Permissions; rows 58 high, at most 650 wide. A value set by a district
 * shows greyed with who set it and who may change it (disabled when locked); at a district each app has its choice
 * for the schools under the Permissions control, and the Privacy column gives its room (Details under the name).
 */
export function AppsTable({ apps, saving, onChange, onPrivacy, readOnly, sources, onUseDefault, policies, onPolicy }: AppsTableProps) {
  const catalogue = APP_CATALOGUE as readonly AppCatalogueEntry[];
  const room = useTableRoom(NARROW_APPS_TABLE_MAX_WIDTH);
  const { ref } = room;
  const district = policies !== undefined;
  const narrow = room.narrow || district;
  const details = (app: AppCatalogueEntry) => (
    <Button
      variant="subtle"
      size="compact-sm"
      aria-label={`Privacy details: ${app.name}`}
      onClick={(event) => onPrivacy(app, event.currentTarget)}
      ml={narrow ? -8 : undefined}
    >
      Details
    </Button>
  );
  return (
    <TableFrame ref={ref}>
      <Table.ScrollContainer minWidth={0} maw={APPS_TABLE_MAX_WIDTH}>
        <Table aria-label="Apps" maw={APPS_TABLE_MAX_WIDTH}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">App</Table.Th>
              {narrow ? null : <Table.Th scope="col">Privacy</Table.Th>}
              <Table.Th scope="col">Permissions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {catalogue.map((app) => {
              const busy = saving.has(app.id);
              const source = sources?.[app.id];
              const policy = policies?.[app.id as keyof typeof policies];
              const note = sourceNote(source, (value: AppSettingValue) => appValueLabel(app, value));
              return (
                <Table.Tr key={app.id} style={{ height: TABLE_ROW_HEIGHT, position: 'relative' }} aria-busy={busy || undefined} data-app={app.id}>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={600}>
                        {app.name}
                      </Text>
                      {app.isNew ? (
                        <Badge size="xs" color="teal.9" variant="filled">
                          New
                        </Badge>
                      ) : null}
                      {app.premium ? (
                        <Badge size="xs" color="violet" variant="light">
                          Premium
                        </Badge>
                      ) : null}
                      {app.teacherOnly ? (
                        <Badge size="xs" color="gray" variant="light">
                          Teachers only
                        </Badge>
                      ) : null}
                    </Group>
                    {narrow ? details(app) : null}
                  </Table.Td>
                  {narrow ? null : <Table.Td>{details(app)}</Table.Td>}
                  <Table.Td miw={narrow ? 200 : 190}>
                    <PermissionSelect
                      label={`Permissions: ${app.name}`}
                      value={toOption(effectiveAppPermission(app, apps[app.id]))}
                      data={appPermissionChoices(app).map((c) => ({ value: toOption(c.value), label: c.label }))}
                      readOnly={readOnly || source?.from === 'locked'}
                      inherited={source?.from === 'default'}
                      description={note}
                      onCommit={(value) => onChange(app, fromOption(value))}
                    />
                    <UseDefaultButton source={source} settingName={app.name} onUseDefault={readOnly || !onUseDefault ? undefined : () => onUseDefault(app)} />
                    {district ? (
                      <SchoolPolicyControl
                        settingName={app.name}
                        choices={appPermissionChoices(app).map((c) => ({ value: String(c.value ?? APP_PERMISSION_EVERYONE), label: c.label }))}
                        policy={policy ? { mode: policy.mode, value: String(policy.value) } : null}
                        disabled={readOnly || source?.from === 'locked'}
                        description={source?.from === 'locked' ? note : null}
                        onChange={(next) => onPolicy?.(app, next ? { mode: next.mode, value: Number(next.value) as AppSettingValue } : null)}
                      />
                    ) : null}
                    <LoadingOverlay visible={busy} zIndex={10} overlayProps={{ blur: 1 }} loaderProps={{ size: 'sm', 'aria-label': `Saving ${app.name}` }} />
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </TableFrame>
  );
}
