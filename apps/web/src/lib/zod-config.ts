// zod compiles object parsers with `new Function` when it may, and finds out whether it may by trying:
// under the console's Content Security Policy (script-src 'self', no 'unsafe-eval') that attempt is a
// reported violation on every page. The console parses small answers: the interpreted parser is enough.
//
// zod reads its settings from `globalThis.__zod_globalConfig` (the object every copy of zod on a page shares), and
// an object schema reads them when it is built. Setting them there, before zod loads, keeps zod and the schemas out
// of the first download (they come with the contracts' chunk, lib/api/contract.ts). zod-config.test.ts checks that
// zod still takes them from there.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
Object.assign((zodGlobal.__zod_globalConfig ??= {}), { jitless: true });

export {};
