import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';

/**
 * A small fixed pool of worker threads for scrypt, with a bounded queue (docs/security.md, "Password
 * hashing"). Each hash takes 128 MiB and ~0.1–0.5 s of one core: run on libuv's shared thread pool, a
 * flood of sign-ins took every thread and all memory and stalled everyone. Here at most `workers`
 * hashes run at once, at most `maxQueue` wait, and anything beyond is refused at once (HashPoolBusy,
 * answered 503 with Retry-After) instead of piling up.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ id, password, salt, keyLength, N, r, p }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keyLength, { N, r, p, maxmem: 256 * N * r });
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** 503: more sign-ins at once than the pool takes; the client tries again shortly. */
export class HashPoolBusy extends AppError {
  constructor() {
    super(503, 'server_busy', 'The server is busy, please try again in a moment.');
  }
}

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
}

interface Pending {
  job: ScryptJob;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

export interface HashPoolOptions {
  /** Hashes computed at once (one worker thread each). */
  workers: number;
  /** Hashes allowed to wait; more are refused with HashPoolBusy. */
  maxQueue: number;
}

/** Default size: half the cores (at least 1, at most 4); queue: 8 per worker. */
export function defaultHashPoolOptions(): HashPoolOptions {
  const workers = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));
  return { workers, maxQueue: workers * 8 };
}

export class HashPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;

  constructor(readonly options: HashPoolOptions) {
    if (!(Number.isInteger(options.workers) && options.workers >= 1 && Number.isInteger(options.maxQueue) && options.maxQueue >= 0)) {
      throw new Error('The hash pool needs a whole number of workers (at least 1) and of waiting places');
    }
  }

  /** Hashes running plus waiting. */
  get load(): number {
    return this.slots.filter((s) => s.busy).length + this.queue.length;
  }

  /** True when a new hash would be refused. */
  get full(): boolean {
    return this.load >= this.options.workers + this.options.maxQueue;
  }

  scrypt(job: ScryptJob): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('The hash pool is closed'));
    return new Promise<Buffer>((resolve, reject) => {
      const pending: Pending = { job, resolve, reject };
      const slot = this.freeSlot();
      if (slot) return this.run(slot, pending);
      if (this.queue.length >= this.options.maxQueue) return reject(new HashPoolBusy());
      this.queue.push(pending);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error('The hash pool is closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private freeSlot(): Slot | null {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length >= this.options.workers) return null;
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), busy: null };
    // Idle workers never keep the process alive.
    slot.worker.unref();
    slot.worker.on('message', (message: { id: number; key?: Uint8Array; error?: string }) => this.finish(slot, message));
    slot.worker.on('error', (error) => this.fail(slot, error));
    slot.worker.on('exit', () => this.fail(slot, new Error('A password hashing worker stopped')));
    this.slots.push(slot);
    return slot;
  }

  private run(slot: Slot, pending: Pending): void {
    slot.busy = pending;
    slot.worker.ref();
    const { password, salt, keyLength, N, r, p } = pending.job;
    slot.worker.postMessage({ id: this.nextId++, password, salt: new Uint8Array(salt), keyLength, N, r, p });
  }

  private finish(slot: Slot, message: { key?: Uint8Array; error?: string }): void {
    const pending = slot.busy;
    slot.busy = null;
    slot.worker.unref();
    if (pending) {
      if (message.key) pending.resolve(Buffer.from(message.key));
      else pending.reject(new Error(message.error ?? 'scrypt failed'));
    }
    this.next(slot);
  }

  private fail(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.busy?.reject(error);
    slot.busy = null;
    const next = this.queue.shift();
    if (next && !this.closed) {
      const replacement = this.freeSlot();
      if (replacement) this.run(replacement, next);
      else this.queue.unshift(next);
    }
  }

  private next(slot: Slot): void {
    const pending = this.queue.shift();
    if (pending) this.run(slot, pending);
  }
}
