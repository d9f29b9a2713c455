import { Menu } from '@mantine/core';
import type { OrganisationLicense } from '@quire/core';
import { RowMenu } from '../../../components/ui/row-menu.js';
import type { Member } from '@quire/core';
import { Text } from '@mantine/core';
import { inOtherSchool, rowActions, type TeacherScreenAccess } from '../model/teacher-access.js';
import { removeTeacherOffered, useTeacherLibraryDialogs } from '../model/library-dialogs.js';

/** What a row menu asks the screen to do. */
export type RowAction =
  | { kind: 'assign'; license: OrganisationLicense }
  | { kind: 'remove-license' }
  | { kind: 'welcome' }
  | { kind: 'certification' }
  | { kind: 'role'; role: number }
  | { kind: 'switch-to-student' }
  | { kind: 'mark-active' }
  | { kind: 'view-profile' }
  | { kind: 'manage-libraries' }
  | { kind: 'remove-teacher' };

export interface TeacherRowMenuProps {
  member: Member;
  licenses: OrganisationLicense[];
  access: TeacherScreenAccess;
  onAction: (member: Member, action: RowAction) => void;
}

/**
 * The row action menu (spec §2). View Profile, Manage Teacher Libraries and Remove teacher open the
 * teacher-libraries feature's dialogs, provided by the app layer (model/library-dialogs.ts).
 */
export function TeacherRowMenu({ member, licenses, access, onAction }: TeacherRowMenuProps) {
  const label = `Actions for ${member.email}`;
  const run = (action: RowAction) => () => onAction(member, action);
  // View Profile, Manage Teacher Libraries and Remove teacher exist where the app provides their dialogs.
  const libraryDialogs = useTeacherLibraryDialogs() !== null;
  const school = inOtherSchool(member, access) ? member.organisation?.name : undefined;

  if (member.revokedAt) {
    return (
      <RowMenu label={label} width={220}>
        <Menu.Item onClick={run({ kind: 'mark-active' })}>Mark as Active</Menu.Item>
      </RowMenu>
    );
  }

  const actions = rowActions(member, licenses, access);
  return (
    <RowMenu label={label} width={260}>
      {libraryDialogs ? <Menu.Item onClick={run({ kind: 'view-profile' })}>View Profile</Menu.Item> : null}
      {actions.assignLicense ? (
        actions.assignLicense.disabled ? (
          <Menu.Item disabled>
            Assign license
            {school ? (
              <Text size="xs" c="dimmed" component="span" display="block">
                Open {school} to assign its licenses
              </Text>
            ) : null}
          </Menu.Item>
        ) : (
          <Menu.Sub position="left-start">
            <Menu.Sub.Target>
              <Menu.Sub.Item>Assign license</Menu.Sub.Item>
            </Menu.Sub.Target>
            <Menu.Sub.Dropdown>
              {actions.assignLicense.choices.map(({ license, disabled }) => (
                <Menu.Item key={license.id} disabled={disabled} onClick={run({ kind: 'assign', license })}>
                  {license.name}
                </Menu.Item>
              ))}
            </Menu.Sub.Dropdown>
          </Menu.Sub>
        )
      ) : null}
      {actions.sendWelcomeEmail ? <Menu.Item onClick={run({ kind: 'welcome' })}>Send welcome email</Menu.Item> : null}
      {actions.requestCertification ? <Menu.Item onClick={run({ kind: 'certification' })}>Request Certification</Menu.Item> : null}
      {actions.removeLicense ? (
        <Menu.Item disabled={actions.removeLicense.disabled} onClick={run({ kind: 'remove-license' })}>
          Remove license
        </Menu.Item>
      ) : null}
      {actions.libraryManager ? (
        <Menu.Item onClick={run({ kind: 'role', role: actions.libraryManager.role })}>{actions.libraryManager.label}</Menu.Item>
      ) : null}
      <Menu.Item disabled={actions.switchToStudent.disabled} onClick={run({ kind: 'switch-to-student' })}>
        Switch to student
      </Menu.Item>
      {libraryDialogs ? <Menu.Item onClick={run({ kind: 'manage-libraries' })}>Manage Teacher Libraries</Menu.Item> : null}
      {libraryDialogs && removeTeacherOffered(member, access) ? (
        <Menu.Item onClick={run({ kind: 'remove-teacher' })}>Remove teacher</Menu.Item>
      ) : null}
    </RowMenu>
  );
}
