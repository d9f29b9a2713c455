import classes from './skip-link.module.css';

/** The first focusable element: jumps keyboard users past the navigation to the screen. */
export function SkipLink({ targetId, children = 'Skip to main content' }: { targetId: string; children?: string }) {
  return (
    <a className={classes.skipLink} href={`#${targetId}`}>
      {children}
    </a>
  );
}
