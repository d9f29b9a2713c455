import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { convertStudentRoutes } from './convert-student.routes.js';
import { membersGraphql } from './members.graphql.js';
import { membersRoutes } from './members.routes.js';
import { teachersBulkRoutes } from './teachers-bulk.routes.js';

/** Teachers of an organisation (docs/teachers-api.md): lists, import, export, book counts, switch to student, memberships. */
export const membersModule: ServerModule = {
  name: 'members',
  plugin: async (app: FastifyInstance) => {
    await app.register(membersRoutes);
    await app.register(teachersBulkRoutes);
    await app.register(convertStudentRoutes);
  },
  graphql: membersGraphql,
};
