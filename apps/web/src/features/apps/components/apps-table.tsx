import { Badge, Button, Group, LoadingOverlay, Table, Text } from '@mantine/core';
import {
  APP_CATALOGUE,
  APPS_TABLE_MAX_WIDTH,
  appPermissionChoices,
  effectiveAppPermission,
  TABLE_ROW_HEIGHT,
  type AppCatalogueEntry,
  type AppPermission,
} from '@quire/core';
import { TableFrame, useTableRoom } from '../../../components/ui/table-frame.js';
import { PermissionSelect } from './permission-select.js';

export interface AppsTableProps {
  apps: Readonly<Record<string, AppPermission | undefined>>;
  /** Apps whose change is being saved: that row shows a loading overlay (the control stays enabled, so focus stays on it). */
  saving: ReadonlySet<string>;
  onChange: (app: AppCatalogueEntry, value: AppPermission | null) => void;
  onPrivacy: (app: AppCatalogueEntry, opener: HTMLButtonElement) => void;
  readOnly?: boolean;
}

const UNSET = 'unset';
const toOption = (value: AppPermission | null) => (value === null ? UNSET : String(value));
const fromOption = (value: string): AppPermission | null => (value === UNSET ? null : (Number(value) as AppPermission));

/**
 * Below this much room (a phone) the Privacy column is dropped and each app's Details button shows under its name, so
 * the Permissions choice is whole on screen instead of cut off at the window's edge.
 */
const NARROW_APPS_TABLE_MAX_WIDTH = 480;

/** Manage Apps table (spec §2): App, Privacy, Permissions; rows 58 high, at most 650 wide. */
export function AppsTable({ apps, saving, onChange, onPrivacy, readOnly }: AppsTableProps) {
  const catalogue = APP_CATALOGUE as readonly AppCatalogueEntry[];
  const { ref, narrow } = useTableRoom(NARROW_APPS_TABLE_MAX_WIDTH);
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
                      readOnly={readOnly}
                      onCommit={(value) => onChange(app, fromOption(value))}
                    />
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
