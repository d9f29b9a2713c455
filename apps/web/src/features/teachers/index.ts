export { TeachersPage } from './components/teachers-page.js';
export { TeacherLibraryDialogsContext, type TeacherLibraryDialogsSlot, type TeacherLibraryRequest } from './model/library-dialogs.js';
