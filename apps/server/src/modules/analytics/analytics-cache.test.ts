import { describe, expect, it } from 'vitest';
import { AnalyticsAnswerCache } from './analytics-cache.js';

describe('AnalyticsAnswerCache', () => {
  it('makes one answer for requests that ask the same at once', async () => {
    const cache = new AnalyticsAnswerCache(30);
    let made = 0;
    const make = async () => {
      made += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return '{"count":1}';
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.answer('org-a', 'count students', make)));
    expect(new Set(answers)).toEqual(new Set(['{"count":1}']));
    expect(made).toBe(1);
  });

  it('keeps nothing when making the answer fails, so the next request asks the database again', async () => {
    const cache = new AnalyticsAnswerCache(30);
    await expect(cache.answer('org-a', 'q', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    await expect(cache.answer('org-a', 'q', async () => '{"count":2}')).resolves.toBe('{"count":2}');
  });

  it('asks again after forget, for that organisation only', async () => {
    const cache = new AnalyticsAnswerCache(30);
    await cache.answer('org-a', 'q', async () => 'a1');
    await cache.answer('org-b', 'q', async () => 'b1');
    cache.forget(['org-a']);
    await expect(cache.answer('org-a', 'q', async () => 'a2')).resolves.toBe('a2');
    await expect(cache.answer('org-b', 'q', async () => 'b2')).resolves.toBe('b1');
  });

  it('keeps nothing when turned off (0 seconds)', async () => {
    const cache = new AnalyticsAnswerCache(0);
    await cache.answer('org-a', 'q', async () => 'a1');
    await expect(cache.answer('org-a', 'q', async () => 'a2')).resolves.toBe('a2');
  });
});
