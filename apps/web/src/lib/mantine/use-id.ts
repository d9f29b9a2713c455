import { useId as useReactId } from 'react';

/**
 * Mantine's `useId` (from @mantine/hooks), as the console's build uses it (apps/web/vite.config.ts): React's own id,
 * stable from the first render. Mantine's replaces React's id with a random one in a layout effect, so every checkbox,
 * select, input, popover and tooltip rendered twice when it mounted (on the Teachers screen, a second commit of 215
 * components: docs/performance-log.md, "First load"). React's ids are unique within the console's one root; an id given
 * by the caller wins, as in Mantine's.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  if (typeof staticId === 'string') return staticId;
  return `mantine-${reactId.replace(/[^A-Za-z0-9_-]/g, '')}`;
}
