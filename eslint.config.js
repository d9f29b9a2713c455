import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

/** Sub-folders of a folder of the repository. */
const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

// Boundaries (STYLE.md; as bulletproof-react does with import zones):
// - a console feature imports only itself and the shared layers (components, lib, config, theme, test), never
//   another feature or the app that composes them; the shared layers import no feature;
// - a server module imports only itself and the shared modules access/ and graphql/ (plus db/, errors, env,
//   jobs, mail and plugins outside modules/).
const webFeatures = folders('./apps/web/src/features');
const serverModules = folders('./apps/server/src/modules');
const SHARED_SERVER_MODULES = ['access', 'graphql'];
// Known dependencies between modules, each a decision in docs/decisions.md: auth-contracts is the spec's
// contract surface over the identity provider; an LTI launch and a library visit sign their user in through the
// identity provider's sign-in tokens; the console's configuration includes the chat-support widget's; importing
// teachers counts seats the way licensing does; a teacher's book counts and private library are libraries' SQL;
// SCIM removes and brings back a teacher with the Teachers screen's own member writes, and makes a group's members
// admins through the admins module's own service; rostering does the same as SCIM, and counts seats as importing does.
const ALLOWED_SERVER_IMPORTS = { 'auth-contracts': ['identity'], 'console-config': ['chat-support'], lti: ['identity'], libraries: ['identity'], members: ['licenses', 'libraries'], scim: ['members', 'admins'], rostering: ['members', 'licenses', 'admins'], 'two-step': ['identity'] };
const boundaryZones = [
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/features',
    except: [`./${feature}`],
    message: 'A console feature does not import another feature: compose features in apps/web/src/app, or move what both need to components/ or lib/.',
  })),
  ...webFeatures.map((feature) => ({
    target: `./apps/web/src/features/${feature}`,
    from: './apps/web/src/app',
    message: 'A console feature does not import the app that composes it.',
  })),
  ...['components', 'lib', 'config', 'theme'].map((layer) => ({
    target: `./apps/web/src/${layer}`,
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'Shared console code does not import features or the app.',
  })),
  ...serverModules
    .filter((module) => !SHARED_SERVER_MODULES.includes(module))
    .map((module) => ({
      target: `./apps/server/src/modules/${module}`,
      from: './apps/server/src/modules',
      except: [`./${module}`, ...[...SHARED_SERVER_MODULES, ...(ALLOWED_SERVER_IMPORTS[module] ?? [])].map((allowed) => `./${allowed}`)],
      message: `A server module imports only itself and the shared modules ${SHARED_SERVER_MODULES.join(' and ')}.`,
    })),
];

export default tseslint.config(
  // scripts/lint-fixtures break the rules on purpose: scripts/lint-rules.test.ts lints them and expects the errors.
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/.data/**', 'test-results/**', 'playwright-report/**', 'scripts/lint-fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx,mts,mjs}'],
    plugins: { 'import-x': importX, 'check-file': checkFile },
    settings: {
      // Without these, import-x parses only .js files when it follows an import, so no-cycle saw no edge between .ts
      // files and reported nothing.
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      // Migrations keep their number first: 0001-initial.ts.
      'check-file/filename-naming-convention': ['error', { '!(**/migrations/*)*.{ts,tsx,mts,mjs}': 'KEBAB_CASE' }, { ignoreMiddleExtensions: true }],
      'check-file/folder-naming-convention': ['error', { '{apps,packages,e2e,bench,scripts}/**/': 'KEBAB_CASE' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
