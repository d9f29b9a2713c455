import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that guard the architecture report what they are meant to: each case lints code that breaks one
 * rule with the repository's own eslint.config.js and expects that rule's error. A rule that is configured but
 * silent (as import-x/no-cycle was, before import-x was told to parse .ts files) fails here.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// ignore: false, so the fixtures (ignored by `npm run lint`, on purpose) are linted here.
const eslint = new ESLint({ cwd: root, ignore: false });

const ruleIds = (results: ESLint.LintResult[]) => results.flatMap((result) => result.messages.map((message) => message.ruleId));
const lint = async (code: string, filePath: string) => ruleIds(await eslint.lintText(code, { filePath: join(root, filePath) }));

describe('lint rules', { timeout: 60_000 }, () => {
  it('import-x/no-cycle refuses two files that import each other', async () => {
    const results = await eslint.lintFiles(['scripts/lint-fixtures/cycle/first.ts', 'scripts/lint-fixtures/cycle/second.ts']);
    expect(results.map((result) => result.messages.map((message) => message.ruleId))).toEqual([['import-x/no-cycle'], ['import-x/no-cycle']]);
  });

  it('import-x/no-restricted-paths refuses a console feature importing another feature', async () => {
    expect(await lint("export * as admins from '../admins/components/admins-page.js';\n", 'apps/web/src/features/members/boundary-probe.ts')).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('import-x/no-restricted-paths refuses a server module importing another module, and allows the shared ones', async () => {
    expect(await lint("export { listAdmins } from '../admins/admins.service.js';\n", 'apps/server/src/modules/licenses/boundary-probe.ts')).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await lint("export { requireActor } from '../access/actor.js';\n", 'apps/server/src/modules/licenses/boundary-probe.ts')).toEqual([]);
  });

  it('check-file refuses a file or folder name that is not kebab-case', async () => {
    expect(await lint('export const x = 1;\n', 'apps/server/src/modules/licenses/licenseHelpers.ts')).toContain('check-file/filename-naming-convention');
    expect(await lint('export const x = 1;\n', 'apps/server/src/modules/licenses/Helpers/x.ts')).toContain('check-file/folder-naming-convention');
    expect(await lint('export const x = 1;\n', 'apps/server/src/modules/licenses/license-helpers.ts')).toEqual([]);
  });
});
