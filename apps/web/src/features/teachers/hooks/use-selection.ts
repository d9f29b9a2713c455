import { useCallback, useState } from 'react';
import type { Member } from '@quire/core';

/** Selected teachers, kept across pages and searches (by id, with the row as last seen). */
export function useSelection() {
  const [selected, setSelected] = useState<Map<string, Member>>(new Map());

  const toggle = useCallback((member: Member, checked: boolean) => {
    setSelected((old) => {
      const next = new Map(old);
      if (checked) next.set(member.id, member);
      else next.delete(member.id);
      return next;
    });
  }, []);

  const togglePage = useCallback((members: Member[], checked: boolean) => {
    setSelected((old) => {
      const next = new Map(old);
      for (const m of members) {
        if (checked) next.set(m.id, m);
        else next.delete(m.id);
      }
      return next;
    });
  }, []);

  const clear = useCallback(() => setSelected(new Map()), []);

  return { selected, ids: new Set(selected.keys()), members: [...selected.values()], toggle, togglePage, clear };
}
