import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's python3: the peers are written against its packaged libraries, which .ci/run installs. */
const PYTHON = '/usr/bin/python3';

/**
 * An independent implementation in Python (a script of test/peers) that a test checks the server against. `available`
 * says whether python3 and its `modules` are installed: on CI their absence fails the run (the peer must not be skipped
 * there); elsewhere the test is skipped with a warning. `run` gives the script `input` as JSON and answers its output.
 */
export function pythonPeer(script: string, modules: string[], debianPackages: string[]): { available: boolean; run: (input: unknown) => string } {
  const path = fileURLToPath(new URL(`./peers/${script}`, import.meta.url));
  const available = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', `import ${modules.join(', ')}`], { encoding: 'utf8' }).status === 0;
  if (!available) {
    const missing = `${debianPackages.join(' and ')} missing: .ci/run installs them (apt-get install ${debianPackages.join(' ')})`;
    if (process.env.CI) throw new Error(missing);
    console.warn(`the tests against ${script} are skipped: ${missing}`);
  }
  return {
    available,
    run(input) {
      const run = spawnSync(PYTHON, [path], { input: JSON.stringify(input), encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`the Python peer ${script} failed: ${run.stderr}`);
      return run.stdout;
    },
  };
}
