import { libraryMessages, type Library } from '@quire/core';
import { useState } from 'react';
import { notifyError } from '../../../lib/notify.js';
import { useJoinLibrary } from '../api/join-library.js';
import { joinErrorText } from '../model/library-errors.js';

export interface VisitState {
  /** The library whose reason is being asked. */
  asking: Library | null;
  /** The join call is running for this library id. */
  joiningId: string | null;
}

/**
 * Visiting a teacher's library (spec §4): needs visitLibraries and the acting admin in the admins list;
 * a first visit asks a reason; the join call answers a sign-in-with-token link to the library in the product,
 * opened in a new tab. The tab is opened during the click itself, so browsers do not block it, and pointed at
 * the link once it exists.
 */
export function useVisitLibrary(input: { orgId: string; teacherId: string; allowed: boolean }) {
  const [state, setState] = useState<VisitState>({ asking: null, joiningId: null });
  // The library is then joined: the hook reloads the teacher's libraries, so the next visit asks no reason.
  const joinLibrary = useJoinLibrary(input.orgId);

  const join = async (library: Library, reason?: string) => {
    const tab = window.open('', '_blank');
    setState((s) => ({ ...s, joiningId: library.id }));
    try {
      const { url: link } = await joinLibrary.mutateAsync({ teacherId: input.teacherId, libraryId: library.id, reason });
      if (tab) {
        // The app must not reach back into the console.
        tab.opener = null;
        tab.location.href = link;
      } else {
        window.open(link, '_blank', 'noopener');
      }
      setState({ asking: null, joiningId: null });
    } catch (error) {
      tab?.close();
      setState((s) => ({ ...s, joiningId: null }));
      notifyError(joinErrorText(error));
    }
  };

  /** The Visit button. */
  const visit = (library: Library) => {
    if (!input.allowed) {
      notifyError(libraryMessages.visitNotAllowed);
      return;
    }
    if (library.joined) void join(library);
    else setState({ asking: library, joiningId: null });
  };

  return {
    ...state,
    visit,
    /** The reason dialog's Visit library button. */
    confirmReason: (reason: string) => {
      if (state.asking) void join(state.asking, reason);
    },
    cancelReason: () => setState({ asking: null, joiningId: null }),
  };
}
