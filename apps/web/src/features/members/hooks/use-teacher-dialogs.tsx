import { checkAssignable, selectionChangedMessage, type Member, type OrganisationLicense, type TeacherEmailKind, type TeacherStatus } from '@quire/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { newIdempotencyKey } from '../../../components/ui/use-submit-once.js';
import { errorMessageOf, notifyError } from '../../../lib/notify.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';
import { LOADED_SELECTION_MAX, loadMatchingTeachers } from '../api/bulk-teachers.js';
import { saveFile } from '../../../lib/save-file.js';
import { fetchTeachersCsv, type ExportScope } from '../api/export-teachers.js';
import type { TeachersListQuery } from '../api/get-teachers.js';
import { ExportCsvDialog } from '../components/export-csv-dialog.js';
import { LicenseChangeDialog } from '../components/license-change-dialog.js';
import { SwitchToStudentDialog } from '../components/switch-to-student-dialog.js';
import { TeacherEmailDialog } from '../components/teacher-email-dialog.js';
import type { RowAction } from '../components/teacher-row-menu.js';
import { bulkRemoveTeacherOffered, useTeacherLibraryDialogs, type TeacherLibraryRequest } from '../model/library-dialogs.js';
import { groupBySchool, schoolOf } from '../model/by-school.js';
import { bulkActionOptions, inOtherSchool, OTHER_SCHOOLS_LICENSE_NOTE, type BulkAction, type BulkActionOption, type TeacherScreenAccess } from '../model/teacher-access.js';
import type { AllMatching, Selection } from './use-selection.js';
import { useTeacherMutations } from './use-teacher-mutations.js';

type Dialog =
  | { kind: 'license'; license: OrganisationLicense | null; members: Member[]; all: AllMatching | null; fromSelection: boolean }
  | { kind: 'email'; emailKind: TeacherEmailKind; members: Member[]; fromSelection: boolean }
  | { kind: 'switch'; members: Member[]; fromSelection: boolean }
  | { kind: 'export' }
  | { kind: 'library'; request: TeacherLibraryRequest; fromSelection: boolean };

export interface TeacherDialogsInput {
  orgId: string;
  status: TeacherStatus;
  licenses: OrganisationLicense[];
  access: TeacherScreenAccess;
  selection: Selection;
  /** The list as shown: for the export. */
  query: TeachersListQuery;
  /** Rows on the page shown, and how many teachers match in all. */
  pageMembers: Member[];
  total: number;
}

/** The actions that work teacher by teacher, showing each one's outcome: for 'all n', the teachers are loaded first. */
const TEACHER_BY_TEACHER = new Set<BulkAction['kind']>(['welcome', 'certification', 'switch-to-student', 'remove-teacher']);

/** Designed: why those actions are not offered for more matching teachers than they take. @internal */
export const TOO_MANY_FOR_TEACHER_BY_TEACHER = `E-mails, Switch to student and Remove teacher take at most ${LOADED_SELECTION_MAX} teachers at a time: narrow the filters to use them.`;

/**
 * The Teachers panel's dialogs and what opens them: the row menu's and the bulk bar's actions, the
 * licence confirmation, the two e-mails, Switch to student, the export choice and the teacher-libraries dialogs.
 * The panel composes the list; this hook decides which dialog is open and renders it as `dialogs`.
 */
export function useTeacherDialogs({ orgId, status, licenses, access, selection, query, pageMembers, total }: TeacherDialogsInput) {
  const queryClient = useQueryClient();
  const mutations = useTeacherMutations(orgId);
  const libraryDialogs = useTeacherLibraryDialogs();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [exporting, setExporting] = useState(false);
  const [loadingSelection, setLoadingSelection] = useState(false);
  const refresh = () => invalidateTeachers(queryClient, orgId);
  const close = () => setDialog(null);
  // A school's teachers on a district's list: the teacher-libraries dialogs work in their school.
  const libraryOrganisation = (members: Member[]) => {
    const school = members[0]?.organisation;
    return access.districtId && school && school.id !== orgId ? { organisation: school } : {};
  };
  // On a district's list each change is made in each teacher's own organisation.
  const bySchool = (members: Member[]) =>
    access.districtId ? { groups: groupBySchool(members, orgId).map((g) => ({ orgId: g.orgId, memberIds: g.members.map((m) => m.id) })) } : {};

  /** The §5 licence rule, checked before asking the server (which checks it again). */
  const startAssign = (license: OrganisationLicense, chosen: Member[], fromSelection: boolean) => {
    const current = licenses.find((l) => l.id === license.id) ?? license;
    const refusal = checkAssignable({
      license: current,
      selectedMemberIds: chosen.map((m) => m.id),
      membersAlreadyOnLicense: chosen.filter((m) => m.license?.id === license.id).map((m) => m.id),
    });
    if (refusal) notifyError(refusal);
    else setDialog({ kind: 'license', license: current, members: chosen, all: null, fromSelection });
  };

  const onRowAction = (member: Member, action: RowAction) => {
    switch (action.kind) {
      case 'assign':
        return startAssign(action.license, [member], false);
      case 'remove-license':
        return setDialog({ kind: 'license', license: null, members: [member], all: null, fromSelection: false });
      case 'welcome':
      case 'certification':
        return setDialog({ kind: 'email', emailKind: action.kind === 'welcome' ? 'WELCOME' : 'CERTIFICATION', members: [member], fromSelection: false });
      case 'role':
        return mutations.setRole.mutate({ memberId: member.id, role: action.role });
      case 'switch-to-student':
        return setDialog({ kind: 'switch', members: [member], fromSelection: false });
      case 'mark-active':
        return mutations.markActive.mutate({ memberIds: [member.id], idempotencyKey: newIdempotencyKey(), ...(access.districtId ? { groups: [{ orgId: schoolOf(member, orgId), memberIds: [member.id] }] } : {}) });
      case 'view-profile':
      case 'manage-libraries':
      case 'remove-teacher': {
        const kind = action.kind === 'view-profile' ? 'view' : action.kind === 'manage-libraries' ? 'manage' : 'remove';
        return setDialog({ kind: 'library', request: { kind, members: [member], ...libraryOrganisation([member]) }, fromSelection: false });
      }
    }
  };

  /** A teacher-by-teacher action on the chosen rows, or on every matching teacher once loaded. */
  const openFor = (action: BulkAction, chosen: Member[]) => {
    switch (action.kind) {
      case 'welcome':
      case 'certification':
        return setDialog({ kind: 'email', emailKind: action.kind === 'welcome' ? 'WELCOME' : 'CERTIFICATION', members: chosen, fromSelection: true });
      case 'switch-to-student':
        return setDialog({ kind: 'switch', members: chosen, fromSelection: true });
      case 'remove-teacher':
        return setDialog({ kind: 'library', request: { kind: 'remove', members: chosen, ...libraryOrganisation(chosen) }, fromSelection: true });
      default:
        return undefined;
    }
  };

  /** Every matching teacher, through the list; refused when they are no longer the n the admin saw. */
  const loadAll = async (all: AllMatching): Promise<Member[] | null> => {
    setLoadingSelection(true);
    try {
      const members = await loadMatchingTeachers(orgId, all.filter);
      if (members.length !== all.total) {
        notifyError(selectionChangedMessage(all.total, members.length));
        void refresh();
        return null;
      }
      return members;
    } catch (error) {
      notifyError(errorMessageOf(error, 'Something went wrong loading the teachers'));
      return null;
    } finally {
      setLoadingSelection(false);
    }
  };

  const onBulk = async (action: BulkAction) => {
    const all = selection.all;
    if (all) {
      if (action.kind === 'assign') return setDialog({ kind: 'license', license: action.license, members: [], all, fromSelection: true });
      if (action.kind === 'remove-license') return setDialog({ kind: 'license', license: null, members: [], all, fromSelection: true });
      const members = await loadAll(all);
      if (members) openFor(action, members);
      return undefined;
    }
    const chosen = selection.members;
    if (action.kind === 'assign') return startAssign(action.license, chosen, true);
    if (action.kind === 'remove-license') return setDialog({ kind: 'license', license: null, members: chosen, all: null, fromSelection: true });
    return openFor(action, chosen);
  };

  // Bulk 'Remove teacher' comes with the teacher-libraries dialogs (see model/library-dialogs.ts). For 'all n', an
  // ordinary admin is offered it only when the filters keep to pending teachers.
  // On a district's list, Remove teacher works in one organisation at a time (the dialogs act in it).
  const oneSchool = !access.districtId || (selection.all ? selection.all.filter.school !== undefined : groupBySchool(selection.members, orgId).length <= 1);
  const removeOffered =
    oneSchool &&
    (selection.all ? access.providerStaff || (!access.isDomain && selection.all.filter.signedUp === 'no') : bulkRemoveTeacherOffered(access, selection.members));
  const tooMany = selection.all !== null && selection.all.total > LOADED_SELECTION_MAX;
  // A district's licences go to its own teachers only: a selection that may hold a school's teacher cannot take one.
  const spansSchools =
    access.districtId !== undefined &&
    (selection.all ? selection.all.filter.school !== access.districtId : selection.members.some((m) => inOtherSchool(m, access)));
  const bulkOptions: BulkActionOption[] = [
    ...bulkActionOptions(licenses, access, spansSchools),
    ...(libraryDialogs && removeOffered ? [{ value: 'remove-teacher', label: 'Remove teacher', action: { kind: 'remove-teacher' } as const }] : []),
  ].map((o) => (tooMany && TEACHER_BY_TEACHER.has(o.action.kind) ? { ...o, disabled: true } : o));

  const confirmLicenseChange = async (d: Extract<Dialog, { kind: 'license' }>, idempotencyKey: string) => {
    try {
      if (d.all) {
        const selected = { filter: d.all.filter, expectedCount: d.all.total };
        const action = d.license
          ? ({ action: 'assign-license', licenseId: d.license.id, selection: selected } as const)
          : ({ action: 'remove-license', selection: selected } as const);
        await mutations.bulk.mutateAsync({ action, idempotencyKey });
      } else {
        const memberIds = d.members.map((m) => m.id);
        if (d.license) await mutations.assign.mutateAsync({ licenseId: d.license.id, memberIds, idempotencyKey });
        else await mutations.remove.mutateAsync({ memberIds, idempotencyKey, ...bySchool(d.members) });
      }
      if (d.fromSelection) selection.clear();
    } finally {
      setDialog(null);
    }
  };

  const runExport = async (scope: ExportScope) => {
    setExporting(true);
    try {
      saveFile(await fetchTeachersCsv(orgId, status, query, scope), 'teachers.csv');
      setDialog(null);
    } catch (error) {
      notifyError(errorMessageOf(error, 'The teachers could not be exported'));
    } finally {
      setExporting(false);
    }
  };

  const onExport = () => {
    // The choice is offered only when there is more than the page shown.
    if (total > query.pageSize) setDialog({ kind: 'export' });
    else void runExport('all');
  };

  let dialogs: ReactNode = null;
  switch (dialog?.kind) {
    case 'license':
      dialogs = (
        <LicenseChangeDialog
          license={dialog.license}
          members={dialog.members}
          total={dialog.all?.total}
          busy={mutations.assign.isPending || mutations.remove.isPending || mutations.bulk.isPending}
          onConfirm={(key) => confirmLicenseChange(dialog, key)}
          onClose={close}
        />
      );
      break;
    case 'email':
      dialogs = (
        <TeacherEmailDialog
          orgId={orgId}
          kind={dialog.emailKind}
          recipients={dialog.members}
          onClose={close}
          onSent={() => {
            if (dialog.fromSelection) selection.clear();
          }}
        />
      );
      break;
    case 'switch':
      dialogs = (
        <SwitchToStudentDialog
          orgId={orgId}
          members={dialog.members}
          onClose={close}
          onFinished={(switched) => {
            if (dialog.fromSelection && selection.all) selection.clear();
            else {
              for (const id of switched) {
                const member = selection.selected.get(id);
                if (member) selection.toggle(member, false);
              }
            }
            void refresh();
          }}
        />
      );
      break;
    case 'library':
      dialogs = libraryDialogs
        ? libraryDialogs.render(dialog.request, {
            onClose: close,
            onDone: () => {
              if (dialog.fromSelection) selection.clear();
              void refresh();
            },
          })
        : null;
      break;
    case 'export':
      dialogs = <ExportCsvDialog pageCount={pageMembers.length} total={total} busy={exporting} onExport={(scope) => void runExport(scope)} onClose={close} />;
      break;
    default:
      dialogs = null;
  }

  return {
    onRowAction,
    onBulk: (action: BulkAction) => void onBulk(action),
    bulkOptions,
    /** Shown under the bulk actions when some are not offered for every matching teacher. */
    bulkNote:
      [tooMany ? TOO_MANY_FOR_TEACHER_BY_TEACHER : null, spansSchools && licenses.length > 0 && !access.isDomain ? OTHER_SCHOOLS_LICENSE_NOTE : null]
        .filter(Boolean)
        .join(' ') || null,
    /** The matching teachers are being loaded for a teacher-by-teacher action. */
    loadingSelection,
    /** Export as CSV: the button's click, and whether a download is running with no dialog open. */
    onExport,
    exportBusy: exporting && dialog === null,
    dialogs,
  };
}
