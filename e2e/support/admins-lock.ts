import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '@playwright/test';

/**
 * Runs `work` while no other test of this run changes the admins of the same organisation. Workers are separate
 * processes and the phone project runs the same specs beside the desktop one, so the lock is a folder made atomically
 * in the run's output folder (Playwright empties it when a run starts, so a worker killed mid-test leaves no lock for
 * the next run). The test removing every other admin to check the last-admin rule, and the audit test adding one,
 * took turns this way; before, one removed the demo admin's own row while the other's new admin stood in for it.
 */
export async function withAdminsOf<T>(orgId: string, work: () => Promise<T>): Promise<T> {
  const release = await lockAdminsOf(orgId);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The lock of `withAdminsOf`, taken now and kept until the returned function is called: for a spec whose hooks must
 * hold it too (one that changes what applies to every admin and puts it back in `afterAll`).
 */
export async function lockAdminsOf(orgId: string): Promise<() => void> {
  const lock = join(test.info().project.outputDir, `.admins-lock-${encodeURIComponent(orgId)}`);
  const waitUntil = Date.now() + 240_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > waitUntil) throw new Error(`another test kept the admins of ${orgId} for four minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return () => rmSync(lock, { recursive: true, force: true });
}
