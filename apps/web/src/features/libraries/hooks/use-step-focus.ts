import { useEffect, useRef } from 'react';

/**
 * Moves focus to the step's heading whenever the step changes (not on the first render, where the
 * dialog's own autofocus applies), so keyboard and screen-reader users are told where they are.
 */
export function useStepFocus<T extends HTMLElement>(step: string) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [step]);
  return ref;
}
