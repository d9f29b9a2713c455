/**
 * Teacher libraries, leaving teachers: the dialogs other screens mount (the Teachers screen's row menu
 * and bulk bar, through the app layer). Each takes a TeacherRef, which a Teachers-list member satisfies.
 */
export { TeacherLibraryViewer, type TeacherLibraryViewerProps } from './components/teacher-library-viewer.js';
export { ManageLibrariesWizard, RemoveTeacherDialog, type RemoveTeacherDialogProps } from './components/remove-teacher-dialog.js';
export { TransferWizard, type TransferWizardProps } from './components/transfer-wizard.js';
export { TeacherLibraryDialogs, type TeacherLibraryDialog } from './components/teacher-library-dialogs.js';
export type { TeacherRef } from './model/teacher-ref.js';
