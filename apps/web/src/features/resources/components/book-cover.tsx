import { Box, Text } from '@mantine/core';
import { COVER_RETRY_COUNT, COVER_RETRY_DELAY_MS, COVER_THUMBNAIL_WIDTH, type FeaturedBook } from '@quire/core';
import { useEffect, useState } from 'react';
import { serviceUrl } from '../../../lib/api/index.js';

/** Height per width of each cover shape. */
const SHAPE_RATIO = { landscape: 3 / 4, square: 1, portrait: 4 / 3 } as const;

/** GET {assets}/{userId}/{bookId}?width=250, with the retry marker on the one retry (spec §7, §9). */
function coverUrl(book: Pick<FeaturedBook, 'uid' | 'bookId'>, attempt: number): string {
  const base = `${serviceUrl('assets', '', book.uid, book.bookId)}?width=${COVER_THUMBNAIL_WIDTH}`;
  return attempt > 0 ? `${base}&retry=${attempt}` : base;
}

type CoverState = 'loading' | 'waiting' | 'loaded' | 'failed';

/**
 * A featured book's cover with the loading rule of spec §4: on the first error wait 2 seconds and retry once
 * with a retry marker on the address; on a second failure show the title. The image stays invisible until it
 * has loaded, so a failure never shows a broken-image icon.
 */
export function BookCover({ book }: { book: FeaturedBook }) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<CoverState>('loading');

  useEffect(() => {
    if (state !== 'waiting') return undefined;
    const timer = window.setTimeout(() => {
      setAttempt((n) => n + 1);
      setState('loading');
    }, COVER_RETRY_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  const onError = () => setState(attempt < COVER_RETRY_COUNT ? 'waiting' : 'failed');
  const height = Math.round(COVER_THUMBNAIL_WIDTH * SHAPE_RATIO[book.shape]);

  return (
    <Box
      w={COVER_THUMBNAIL_WIDTH}
      maw="100%"
      h={height}
      pos="relative"
      bg="gray.1"
      style={{ borderRadius: 6, overflow: 'hidden' }}
      data-shape={book.shape}
      data-cover-state={state}
    >
      {state === 'failed' ? (
        <Text fw={700} ta="center" p="md" c="dark.7" style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          {book.title}
        </Text>
      ) : state === 'waiting' ? null : (
        <img
          key={attempt}
          src={coverUrl(book, attempt)}
          alt={book.title}
          width={COVER_THUMBNAIL_WIDTH}
          height={height}
          onLoad={() => setState('loaded')}
          onError={onError}
          style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover', visibility: state === 'loaded' ? 'visible' : 'hidden' }}
        />
      )}
    </Box>
  );
}
