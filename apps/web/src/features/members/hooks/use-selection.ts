import type { Member, TeacherListFilter } from '@quire/core';
import { useCallback, useMemo, useState } from 'react';

/** 'Select all n teachers': every teacher matching these filters, across pages, n of them when chosen. */
export interface AllMatching {
  filter: TeacherListFilter;
  total: number;
}

/**
 * Selected teachers: rows ticked one by one or a page at a time, kept across pages and searches (by id, with the
 * row as last seen); or, after 'Select all n teachers', every teacher matching the filters. Unticking a row in
 * the second mode goes back to the first with the page shown, less that row.
 */
export function useSelection(pageMembers: readonly Member[] = []) {
  const [selected, setSelected] = useState<Map<string, Member>>(new Map());
  const [all, setAll] = useState<AllMatching | null>(null);

  /** The explicit selection to change: the page shown when leaving 'all'. */
  const start = useCallback(
    (old: Map<string, Member>) => (all ? new Map(pageMembers.map((m) => [m.id, m] as const)) : new Map(old)),
    [all, pageMembers],
  );

  const toggle = useCallback(
    (member: Member, checked: boolean) => {
      setSelected((old) => {
        const next = start(old);
        if (checked) next.set(member.id, member);
        else next.delete(member.id);
        return next;
      });
      setAll(null);
    },
    [start],
  );

  const togglePage = useCallback(
    (members: Member[], checked: boolean) => {
      setSelected((old) => {
        const next = start(old);
        for (const m of members) {
          if (checked) next.set(m.id, m);
          else next.delete(m.id);
        }
        return next;
      });
      setAll(null);
    },
    [start],
  );

  const selectAll = useCallback((matching: AllMatching) => {
    setSelected(new Map());
    setAll(matching);
  }, []);

  const clear = useCallback(() => {
    setSelected(new Map());
    setAll(null);
  }, []);

  /** The filters changed: 'all' no longer means the same teachers. */
  const leaveAll = useCallback(() => setAll(null), []);

  const ids = useMemo(() => (all ? new Set(pageMembers.map((m) => m.id)) : new Set(selected.keys())), [all, pageMembers, selected]);

  return {
    selected,
    /** Ids ticked on screen (every row shown, in 'all' mode). */
    ids,
    /** The rows chosen one by one; empty in 'all' mode. */
    members: [...selected.values()],
    /** Every teacher matching the filters, or null. */
    all,
    /** How many teachers the bulk bar acts on. */
    count: all ? all.total : selected.size,
    toggle,
    togglePage,
    selectAll,
    leaveAll,
    clear,
  };
}

export type Selection = ReturnType<typeof useSelection>;
