import { useState } from 'react';
import type { TeacherRef } from '../model/teacher-ref.js';
import { ManageLibrariesWizard, RemoveTeacherDialog } from './remove-teacher-dialog.js';
import { TeacherLibraryViewer } from './teacher-library-viewer.js';
import { LibraryOrganisationContext } from '../model/library-organisation.js';

/** What another screen asks for: View Profile, Manage Teacher Libraries, or Remove teacher. */
interface TeacherLibraryDialog {
  kind: 'view' | 'manage' | 'remove';
  teachers: TeacherRef[];
  /** The teachers' own organisation when it is not the one open (a school's teachers on a district's list). */
  organisation?: { id: string; name: string };
}

export interface TeacherLibraryDialogsProps {
  dialog: TeacherLibraryDialog;
  onClose: () => void;
  /** Something changed (libraries moved, licence revoked, teachers removed): reload the lists. */
  onDone: (dialog: TeacherLibraryDialog) => void;
}

/**
 * One entry point for the Teachers screen: mounts the viewer, the wizard or the remove dialog, and
 * follows the viewer's 'Manage libraries' into the wizard.
 */
export function TeacherLibraryDialogs({ dialog, onClose, onDone }: TeacherLibraryDialogsProps) {
  const [current, setCurrent] = useState(dialog);
  const teacher = current.teachers[0];
  if (!teacher) return null;
  return (
    <LibraryOrganisationContext.Provider value={dialog.organisation ?? null}>
      <TeacherLibraryDialogBody current={current} teacher={teacher} setCurrent={setCurrent} onClose={onClose} onDone={onDone} />
    </LibraryOrganisationContext.Provider>
  );
}

function TeacherLibraryDialogBody({
  current,
  teacher,
  setCurrent,
  onClose,
  onDone,
}: {
  current: TeacherLibraryDialog;
  teacher: TeacherRef;
  setCurrent: (dialog: TeacherLibraryDialog) => void;
  onClose: () => void;
  onDone: (dialog: TeacherLibraryDialog) => void;
}) {
  switch (current.kind) {
    case 'view':
      return <TeacherLibraryViewer teacher={teacher} opened onClose={onClose} onManageLibraries={() => setCurrent({ ...current, kind: 'manage', teachers: [teacher] })} />;
    case 'manage':
      return <ManageLibrariesWizard teacher={teacher} onClose={onClose} onDone={() => onDone(current)} />;
    case 'remove':
      return <RemoveTeacherDialog teachers={current.teachers} onClose={onClose} onDone={() => onDone(current)} />;
  }
}
