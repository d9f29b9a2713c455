/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every
 * machine, so the demo data, ids included, can be reproduced exactly.
 */
export class Random {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick needs at least one item');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /** An id of url-safe letters and digits, like the ids the product's services hand out. */
  id(length = 20): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ID_ALPHABET[Math.floor(this.next() * ID_ALPHABET.length)];
    return out;
  }

  /**
   * Like id(), but led by a base-36 sequence number (as push ids lead with a time): ids of one generator
   * sort in creation order, so the database appends to its indexes instead of splitting random pages.
   */
  sequentialId(sequence: number, length = 20): string {
    return sequence.toString(36).padStart(7, '0') + this.id(length - 7);
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }

  /** A new source derived from this one, so a part of the data can be generated independently. */
  fork(label: string): Random {
    return new Random((hashString(label) ^ Math.floor(this.next() * 4294967296)) >>> 0);
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

/** FNV-1a: turns a text seed into a 32-bit number. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
