export { TeachersPage } from './components/teachers-page.js';
export { TeacherLibraryDialogsContext, type TeacherLibraryDialogsSlot } from './model/library-dialogs.js';
