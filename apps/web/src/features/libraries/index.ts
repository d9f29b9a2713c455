/**
 * Teacher libraries, leaving teachers: the dialogs other screens mount (the Teachers screen's row menu
 * and bulk bar, through the app layer). Each takes a TeacherRef, which a Teachers-list member satisfies.
 */
export { TeacherLibraryDialogs } from './components/teacher-library-dialogs.js';
