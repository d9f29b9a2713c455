import type { ServerModule } from '../../plugins/server-module.js';
import { teacherMailGraphql } from './teacher-mail.graphql.js';

/** The welcome e-mail and the certification request (docs/teachers-api.md). */
export const teacherMailModule: ServerModule = { name: 'teacher-mail', graphql: teacherMailGraphql };
