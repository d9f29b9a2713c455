import { Button, Group, Select, Stack } from '@mantine/core';
import { authMessages } from '@quire/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FullPageLoader } from '../../../components/ui/full-page-loader.js';
import { paths } from '../../../config/paths.js';
import type { OrganisationSummary } from '@quire/core';
import { getRememberedOrganisation, useSession, useSessionControls } from '../../../lib/session/index.js';
import { pickerData } from '../organisation-tree.js';
import { organisationInPath, peekReturnTo } from '../../../lib/session/return-to.js';
import { AuthCard } from './auth-card.js';
import { FormError } from '../../../components/ui/form-error.js';

/** Where to go once an organisation is current: the remembered page if it is in that organisation. */
function destinationFor(organisationId: string): string {
  const returnTo = peekReturnTo();
  return returnTo && organisationInPath(returnTo) === organisationId ? returnTo : paths.org.home(organisationId);
}

/** The picker's first choice: the organisation named in the route, else the remembered one (BC_ORG). */
function preselection(organisations: OrganisationSummary[]): string | null {
  const ids = new Set(organisations.map((o) => o.id));
  const named = organisationInPath(peekReturnTo());
  if (named && ids.has(named)) return named;
  const remembered = getRememberedOrganisation();
  return remembered && ids.has(remembered) ? remembered : null;
}

/** /sign-in/organisation: 'Select Organization', loaded on mount (spec §2, §4 "Organisation loading"). */
export function OrganisationPage() {
  const session = useSession();
  const controls = useSessionControls();
  const { organisationsStatus } = controls.state;
  const signedIn = session.status === 'signed-in';

  useEffect(() => {
    if (signedIn) void controls.loadOrganisations();
    // Loaded on mount (and after a sign-in on this screen's watch), not on every change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signedIn]);

  if (session.status === 'loading') return <FullPageLoader />;
  if (session.status === 'signed-out') return <Navigate to={paths.signIn.root()} replace />;
  if (session.status === 'unverified') return <Navigate to={paths.signIn.verifyEmail()} replace />;
  if (session.status === 'second-step') return <Navigate to={paths.signIn.twoStep()} replace />;
  if (session.status === 'enrol') return <Navigate to={paths.account.security()} replace />;
  if (organisationsStatus !== 'loaded') return <FullPageLoader label="Loading organisations" />;
  const only = session.organisations.length === 1 ? session.organisations[0] : undefined;
  // One organisation is selected automatically (spec §4).
  if (only) {
    if (session.currentOrganisation?.id === only.id) return <Navigate to={destinationFor(only.id)} replace />;
    return <FullPageLoader label="Loading organisation" />;
  }
  return <OrganisationPicker organisations={session.organisations} current={session.currentOrganisation?.id ?? null} />;
}

/** `current`: the organisation already open when the admin came to switch; Cancel goes back to it. */
function OrganisationPicker({ organisations, current }: { organisations: OrganisationSummary[]; current: string | null }) {
  const controls = useSessionControls();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<string | null>(() => preselection(organisations));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      await controls.chooseOrganisation(chosen);
      void navigate(destinationFor(chosen), { replace: true });
    } catch {
      setError(authMessages.organisationLookupFailed);
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Select Organization">
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Select Organization">
        <Stack gap="md">
          <FormError message={error} />
          <Select
            label="Organization"
            placeholder="Search organizations"
            data={pickerData(organisations)}
            value={chosen}
            onChange={setChosen}
            searchable
            // The form starts in its field, as the other sign-in forms do; its list opens on typing, the arrow keys or a
            // click, not on that first focus, so it does not cover Submit as the page opens.
            autoFocus
            openOnFocus={false}
            nothingFoundMessage="No organizations found"
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            {current ? (
              <Button variant="default" onClick={() => void navigate(paths.org.home(current))} disabled={busy}>
                Cancel
              </Button>
            ) : null}
            <Button type="submit" disabled={!chosen} loading={busy}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
