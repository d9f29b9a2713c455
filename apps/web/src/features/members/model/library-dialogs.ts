import { createContext, useContext, type ReactNode } from 'react';
import type { Member } from '@quire/core';
import type { TeacherScreenAccess } from './teacher-access.js';

/**
 * The row menu's View Profile, Manage Teacher Libraries and Remove teacher open dialogs of the
 * teacher-libraries feature. A feature does not import another one, so the app layer provides them
 * here (app/teachers-screen.tsx); without a provider these entries are not offered.
 */
export interface TeacherLibraryRequest {
  kind: 'view' | 'manage' | 'remove';
  members: Member[];
  /** The members' own organisation when it is not the one open (a school's teachers on a district's list). */
  organisation?: { id: string; name: string };
}

export interface TeacherLibraryDialogsSlot {
  /** Renders the dialog asked for; onDone after any change (the lists reload), onClose when it closes. */
  render: (request: TeacherLibraryRequest, handlers: { onClose: () => void; onDone: () => void }) => ReactNode;
}

export const TeacherLibraryDialogsContext = createContext<TeacherLibraryDialogsSlot | null>(null);

export function useTeacherLibraryDialogs(): TeacherLibraryDialogsSlot | null {
  return useContext(TeacherLibraryDialogsContext);
}

/** Remove teacher (spec §6): provider staff, or a pending teacher in a non-domain organisation. */
export function removeTeacherOffered(member: Pick<Member, 'pending'>, access: Pick<TeacherScreenAccess, 'providerStaff' | 'isDomain'>): boolean {
  return access.providerStaff || (member.pending && !access.isDomain);
}

/** The bulk 'Remove teacher' is offered where a row's could be. */
export function bulkRemoveTeacherOffered(
  access: Pick<TeacherScreenAccess, 'providerStaff' | 'isDomain'>,
  selected?: ReadonlyArray<{ pending: boolean }>,
): boolean {
  if (access.providerStaff) return true;
  // Ordinary admins may remove only pending teachers (spec §6): offered only when every selected teacher is pending.
  return !access.isDomain && (selected === undefined || selected.every((m) => m.pending));
}
