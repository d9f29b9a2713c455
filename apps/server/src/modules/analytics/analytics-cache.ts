import { LRUCache } from 'lru-cache';

/**
 * The answers of the analytics data calls, kept for a short time (ANALYTICS_CACHE_SECONDS) as the JSON text that
 * was sent: a dashboard opened by many admins of one district at once, or reloaded, asks the same few questions,
 * and each answer then costs the signed-URL check and a lookup instead of a database round trip and a new
 * serialisation (docs/analytics.md, docs/performance.md "Analytics").
 *
 * Keys always start with the organisation, and a request reaches the cache only after its signed URL was checked
 * for that organisation, so one organisation can never be answered from another's entries. Events this process
 * takes in for an organisation drop its entries at once (a new generation); other processes' entries, and counts
 * of libraries and books made since, are at most ANALYTICS_CACHE_SECONDS old.
 */
export class AnalyticsAnswerCache {
  private readonly answers: LRUCache<string, string> | null;
  private readonly generations = new Map<string, number>();
  /** Answers being made: requests asking the same meanwhile wait for the same database round trip. */
  private readonly pending = new Map<string, Promise<string>>();

  constructor(seconds: number, maxEntries = 5_000) {
    this.answers = seconds > 0 ? new LRUCache({ max: maxEntries, ttl: seconds * 1000, ttlAutopurge: false }) : null;
  }

  private key(organisationId: string, question: string): string {
    return `${organisationId}\n${this.generations.get(organisationId) ?? 0}\n${question}`;
  }

  /** The answer's JSON text: kept, or made by `answer` (and kept). */
  async answer(organisationId: string, question: string, answer: () => Promise<string>): Promise<string> {
    if (!this.answers) return answer();
    const key = this.key(organisationId, question);
    const kept = this.answers.get(key) ?? this.pending.get(key);
    if (kept !== undefined) return kept;
    const made = answer().then(
      (text) => {
        // Kept under the generation it was asked in: events that arrived meanwhile have moved the organisation on.
        this.answers!.set(key, text);
        return text;
      },
    ).finally(() => this.pending.delete(key));
    this.pending.set(key, made);
    return made;
  }

  /** Forgets every kept answer of these organisations (their events just changed). */
  forget(organisationIds: Iterable<string>): void {
    if (!this.answers) return;
    for (const id of organisationIds) this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }
}
