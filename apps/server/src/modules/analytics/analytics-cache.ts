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
  /**
   * lru-cache's fetch() keeps one answer in the making per key (requests asking the same meanwhile wait for the same
   * database round trip) and keeps nothing when making it fails.
   */
  private readonly answers: LRUCache<string, string, () => Promise<string>> | null;
  private readonly generations = new Map<string, number>();

  constructor(seconds: number, maxEntries = 5_000) {
    this.answers =
      seconds > 0 ? new LRUCache({ max: maxEntries, ttl: seconds * 1000, fetchMethod: (_key, _stale, { context }) => context() }) : null;
  }

  /** The answer's JSON text: kept, or made by `answer` (and kept). */
  async answer(organisationId: string, question: string, answer: () => Promise<string>): Promise<string> {
    if (!this.answers) return answer();
    // Under the organisation's generation when asked: events that arrive meanwhile move it on, so an answer made
    // from the rows before them is never found again.
    const key = `${organisationId}\n${this.generations.get(organisationId) ?? 0}\n${question}`;
    const text = await this.answers.fetch(key, { context: answer });
    if (text === undefined) throw new Error('The analytics answer cache gave no answer');
    return text;
  }

  /** Forgets every kept answer of these organisations (their events just changed). */
  forget(organisationIds: Iterable<string>): void {
    if (!this.answers) return;
    for (const id of organisationIds) this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }
}
