import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { demoServerEnv } from './env.js';
import { findFreePorts, startServer, type StartedServer } from './server.js';

/**
 * Several copies of the real server behind HAProxy, on one PostgreSQL database: the set-up the proxied end-to-end
 * flows (tests/proxy) and the rolling-restart benchmark (bench/rolling-restart.bench.ts) run against
 * (docs/scale-out.md). HAProxy is Debian's package (`apt-get install haproxy`; .ci/run installs it).
 *
 * - Round robin, no session affinity: consecutive requests of one browser go to different copies.
 * - Health checks on /readyz every second; two failed checks take a copy out, two good ones put it back.
 * - The proxy sets X-Forwarded-For (the copies run with TRUST_PROXY=loopback) and X-Request-Id (a new UUID,
 *   overwriting a client's), and names the copy that answered in X-Quire-Copy: a header of this test set-up only,
 *   so a test can prove the requests really spread.
 * - Every copy has the same configuration (AUTH_SECRET, LTI_ENCRYPTION_KEY, …) and its own DATA_DIR and log.
 */
export const COPY_HEADER = 'x-quire-copy';

interface ClusterCopy {
  /** HAProxy's name for it, as X-Quire-Copy says: copy1, copy2, … */
  name: string;
  port: number;
  /** Its own address, bypassing the proxy. */
  url: string;
  logFile: string;
  /** The running process (undefined while it is stopped). */
  server: StartedServer | undefined;
}

export interface ProxyCluster {
  /** The proxy's address: the console's public URL. */
  url: string;
  copies: ClusterCopy[];
  /** The folder holding the HAProxy configuration and every copy's data folder and log. */
  folder: string;
  /** SIGTERM to one copy (it drains: SHUTDOWN_DRAIN_SECONDS), waits for it to exit, starts it again, and waits until the proxy sends to it. */
  restart(copy: ClusterCopy, options?: { whileStopped?: () => Promise<void> }): Promise<void>;
  /** Stops every copy and the proxy. */
  stop(): Promise<void>;
}

export interface ProxyClusterOptions {
  /** The PostgreSQL database every copy uses. */
  databaseUrl: string;
  copies?: number;
  /** More environment for every copy (e.g. the sign-in peers' SMTP_URL). */
  env?: Record<string, string>;
  /** Seconds a stopping copy answers /readyz 503 before it stops listening (default 5: the checks see it in about 2 s). */
  drainSeconds?: number;
  /** The proxy's port, when it must be known before the cluster starts (the sign-in peers are told the console's URL). */
  proxyPort?: number;
}

const HAPROXY = process.env.HAPROXY_PATH || '/usr/sbin/haproxy';

/** Whether HAProxy is installed (the proxied flows need it). */
export function haproxyInstalled(): boolean {
  return spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0;
}

/** HAProxy's configuration for the copies' ports. */
function haproxyConfig(proxyPort: number, copies: Array<{ name: string; port: number }>): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  timeout http-keep-alive 10s
  # The client's address for the copies' rate limits and audit log (they believe it: TRUST_PROXY).
  option forwardfor
  # A connection a copy refuses is tried again on another copy (safe: the request never reached a server).
  retries 3
  option redispatch 1

frontend console
  bind 127.0.0.1:${proxyPort}
  # The proxy's own id for every request, overwriting a client's: the copies log it as reqId.
  http-request set-header X-Request-Id %[uuid()]
  # Test set-up only: which copy answered.
  http-response set-header X-Quire-Copy %[srv_name]
  default_backend copies

backend copies
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  # A check may take a while on a busy machine: only two failed checks in a row take a copy out. A stopping copy
  # answers 503 at once, so it is out within about two seconds: less than its drain (SHUTDOWN_DRAIN_SECONDS).
  timeout check 3s
  default-server inter 1s fall 2 rise 2
${copies.map((copy) => `  server ${copy.name} 127.0.0.1:${copy.port} check`).join('\n')}
`;
}

/** A port for the proxy, chosen before the cluster starts (startProxyCluster's `proxyPort`). */
export async function findProxyPort(): Promise<number> {
  const [port] = await findFreePorts(1);
  return port as number;
}

export async function startProxyCluster(options: ProxyClusterOptions): Promise<ProxyCluster> {
  const count = options.copies ?? 3;
  const folder = mkdtempSync(join(tmpdir(), 'quire-proxy-'));
  const ports = await findFreePorts(count + (options.proxyPort ? 0 : 1), options.proxyPort ? [options.proxyPort] : []);
  const proxyPort = options.proxyPort ?? (ports.pop() as number);
  const url = `http://localhost:${proxyPort}`;
  const shared: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: options.databaseUrl,
    AUTH_SECRET: randomBytes(24).toString('base64url'),
    LTI_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TRUST_PROXY: 'loopback',
    SHUTDOWN_DRAIN_SECONDS: String(options.drainSeconds ?? 5),
    ...demoServerEnv(),
    ...options.env,
  };
  const copies: ClusterCopy[] = ports.slice(0, count).map((port, i) => {
    const name = `copy${i + 1}`;
    return { name, port, url: `http://localhost:${port}`, logFile: join(folder, `${name}.log`), server: undefined };
  });
  const start = async (copy: ClusterCopy) => {
    mkdirSync(join(folder, copy.name), { recursive: true });
    copy.server = await startServer({ port: copy.port, publicUrl: url, logFile: copy.logFile, env: { ...shared, DATA_DIR: join(folder, copy.name) } });
  };

  let proxy: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all(copies.map((copy) => copy.server?.stop()));
    if (proxy && proxy.exitCode === null) {
      const exited = new Promise((done) => proxy?.once('exit', done));
      proxy.kill('SIGTERM');
      await exited;
    }
  };
  try {
    // The first copy migrates and seeds the demo; the others start on the database it leaves.
    const [first, ...rest] = copies;
    if (first) await start(first);
    await Promise.all(rest.map(start));

    const config = join(folder, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(proxyPort, copies));
    const log = createWriteStream(join(folder, 'haproxy.log'));
    proxy = spawn(HAPROXY, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy.stdout?.pipe(log);
    proxy.stderr?.pipe(log);
    const killProxy = () => proxy?.kill('SIGKILL');
    process.once('exit', killProxy);
    await waitUntil(async () => (await spreadOf(url, copies.length * 2)).size === copies.length, `HAProxy at ${url} sending to every copy (its log: ${folder}/haproxy.log)`);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url,
    copies,
    folder,
    async restart(copy, restartOptions) {
      await copy.server?.stop();
      copy.server = undefined;
      await restartOptions?.whileStopped?.();
      await start(copy);
      // Back in rotation only after two good health checks: wait for the proxy to send to it again.
      await waitUntil(async () => (await spreadOf(url, copies.length * 2)).has(copy.name), `HAProxy sending to ${copy.name} again`);
    },
    stop,
  };
}

/** The copies that answered `requests` readiness checks through the proxy. */
async function spreadOf(url: string, requests: number): Promise<Set<string>> {
  const names = new Set<string>();
  for (let i = 0; i < requests; i += 1) {
    try {
      const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      const name = answer.headers.get(COPY_HEADER);
      if (answer.ok && name) names.add(name);
    } catch {
      // Not listening yet.
    }
  }
  return names;
}

async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(250);
  }
  throw new Error(`Timed out waiting for ${what}`);
}
