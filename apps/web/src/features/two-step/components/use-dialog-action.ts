import { useState } from 'react';

/**
 * A dialog's confirming action: busy from the press on, and staying busy on success (the dialog closes); a failure
 * shows `failureText(failure)` and lets the person try again. A second press while busy does nothing.
 */
export function useDialogAction(failureText: (failure: unknown) => string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, onFailure?: () => void) => {
    if (busy) return;
    setBusy(true);
    try {
      await action();
    } catch (failure) {
      setError(failureText(failure));
      onFailure?.();
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
