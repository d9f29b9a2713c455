import { TeacherLibraryDialogs } from '../features/libraries/index.js';
import { TeacherLibraryDialogsContext, TeachersPage, type TeacherLibraryDialogsSlot } from '../features/members/index.js';

/**
 * The Teachers screen with the teacher-libraries dialogs behind its row menu and bulk bar. Features do
 * not import each other, so the app layer composes them: the teachers feature asks, this one answers.
 */
const libraryDialogs: TeacherLibraryDialogsSlot = {
  render: (request, { onClose, onDone }) => (
    <TeacherLibraryDialogs
      dialog={{ kind: request.kind, teachers: request.members, ...(request.organisation ? { organisation: request.organisation } : {}) }}
      onClose={onClose}
      onDone={onDone}
    />
  ),
};

export function TeachersScreen() {
  return (
    <TeacherLibraryDialogsContext.Provider value={libraryDialogs}>
      <TeachersPage />
    </TeacherLibraryDialogsContext.Provider>
  );
}
