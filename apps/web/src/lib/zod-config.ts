import { config } from 'zod';

// zod compiles object parsers with `new Function` when it may, and finds out whether it may by trying:
// under the console's Content Security Policy (script-src 'self', no 'unsafe-eval') that attempt is a
// reported violation on every page. The console parses small answers: the interpreted parser is enough.
config({ jitless: true });
