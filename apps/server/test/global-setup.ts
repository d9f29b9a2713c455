import type { TestProject } from 'vitest/node';
import { createDatabaseTemplate } from './database-template.js';
import { testEnv } from './helper.js';

/** Once per run of the server project: migrate one template database; drop it when the run ends. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const make = () => createDatabaseTemplate(testEnv(), process.env.TEST_DATABASE_URL);
  let current = await make();
  project.provide('databaseTemplate', current.template);
  project.provide('tenantTables', current.tenantTables);
  project.provide('partitionedSchema', current.partitionedSchema);
  // Watch mode runs this setup once; a rerun may follow a change to the migrations, so make it again.
  project.onTestsRerun(async () => {
    await current.drop();
    current = await make();
    project.provide('databaseTemplate', current.template);
    project.provide('tenantTables', current.tenantTables);
    project.provide('partitionedSchema', current.partitionedSchema);
  });
  return () => current.drop();
}
