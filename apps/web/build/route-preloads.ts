import { resolve } from 'node:path';
import type { OutputBundle, OutputChunk } from 'rollup';
import type { PluginOption } from 'vite';
import type { RoutePreloads } from '@quire/core';

/**
 * Which lazy modules a deep link needs before its screen can show, by path: a path matching `pattern` (the first that
 * matches) loads these modules' chunks. The routes themselves are src/app/routes.tsx and src/features/identity/
 * auth.routes.tsx; the build fails if a module named here is not one of their lazy chunks.
 */
export interface RoutePreloadRule {
  pattern: string;
  modules: string[];
}

const ROUTE_PRELOADS_FILE = 'route-preloads.json';

function isChunk(file: OutputBundle[string]): file is OutputChunk {
  return file.type === 'chunk';
}

/**
 * Names, in index.html as the server sends it for a deep link, every script and style sheet that link's screen needs
 * (`<link rel="modulepreload">`, `<link rel="stylesheet">`), from the build's own chunk graph.
 *
 * Without them, the browser learns of a screen's chunks only once the entry script has run and the router has asked for
 * the screen: one round trip later, and then Vite's preload helper adds one `<link>` per file from script (32 for the
 * Teachers screen: about 24 ms of the main thread on this machine, four times that on Lighthouse's phone, in the task
 * that first renders the console). With the links in the page, the browser fetches them beside the entry script,
 * and the helper finds each one already there and adds nothing (docs/performance-log.md, "Route preloads").
 */
export function routePreloads(root: string, rules: RoutePreloadRule[]): PluginOption {
  return {
    name: 'quire-route-preloads',
    apply: 'build',
    // After Vite's own: it drops the chunks that only carried style sheets, which must not be named.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter(isChunk);
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) this.error('route preloads: the build has no entry chunk');
        const lazy = new Set(chunks.flatMap((chunk) => chunk.dynamicImports));

        /** A chunk, every chunk it imports statically, and their style sheets. */
        const closure = (start: OutputChunk, scripts: Set<string>, styles: Set<string>) => {
          const stack = [start];
          while (stack.length > 0) {
            const chunk = stack.pop()!;
            if (scripts.has(chunk.fileName)) continue;
            scripts.add(chunk.fileName);
            for (const css of chunk.viteMetadata?.importedCss ?? []) styles.add(css);
            for (const file of chunk.imports) {
              const next = byFile.get(file);
              if (next) stack.push(next);
            }
          }
        };

        // What index.html already loads: the entry, its static imports and its style sheets.
        const initialScripts = new Set<string>();
        const initialStyles = new Set<string>();
        closure(entry, initialScripts, initialStyles);

        const routes = rules.map((rule) => {
          const scripts = new Set<string>();
          const styles = new Set<string>();
          for (const module of rule.modules) {
            const id = resolve(root, module);
            // Its own chunk, or the one a small chunk was merged into (experimentalMinChunkSize).
            const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
            if (!chunk || !lazy.has(chunk.fileName)) this.error(`route preloads: ${module} (for ${rule.pattern}) is not a lazily loaded chunk`);
            closure(chunk, scripts, styles);
          }
          return {
            pattern: rule.pattern,
            scripts: [...scripts].filter((file) => !initialScripts.has(file)).map((file) => `/${file}`),
            styles: [...styles].filter((file) => !initialStyles.has(file)).map((file) => `/${file}`),
          };
        });
        const preloads: RoutePreloads = { routes };
        this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(preloads, null, 2)}\n` });
      },
    },
  };
}
