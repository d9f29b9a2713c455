import { organisationMessages, validationMessages } from '@quire/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { OrganisationNamePanel } from './organisation-name-panel.js';

afterEach(() => vi.unstubAllGlobals());

const serveRename = (answer?: FakeHandler) => fakeFetch(answer ? { 'gql renameOrganisation': answer } : {});

function renderPanel(props: { readOnly?: boolean } = {}) {
  const onRenamed = vi.fn();
  renderAt(<OrganisationNamePanel orgId="org-1" name="Hillside School" onRenamed={onRenamed} {...props} />);
  return { onRenamed, user: userEvent.setup(), input: screen.getByRole('textbox', { name: 'Organisation name' }) };
}

describe('the organisation name panel', () => {
  it('saves the trimmed name when the field is left', async () => {
    const server = serveRename({ body: { data: { renameOrganisation: { id: 'org-1', name: 'Hillside Academy' } } } });
    const { user, input, onRenamed } = renderPanel();
    await user.clear(input);
    await user.type(input, '  Hillside Academy  ');
    await user.tab();
    await waitFor(() => expect(onRenamed).toHaveBeenCalledWith('Hillside Academy'));
    expect(server.requests[0]?.body).toMatchObject({ operationName: 'renameOrganisation', variables: { orgId: 'org-1', name: 'Hillside Academy' } });
    expect(input).toHaveValue('Hillside Academy');
  });

  it('refuses an empty name and restores the old one', async () => {
    const server = serveRename();
    const { user, input } = renderPanel();
    await user.clear(input);
    await user.type(input, '   ');
    await user.tab();
    expect(await screen.findByText(validationMessages.organisationNameEmpty)).toBeInTheDocument();
    expect(input).toHaveValue('Hillside School');
    expect(server.requests).toHaveLength(0);
  });

  it('restores the old name when the server fails', async () => {
    serveRename({ body: { errors: [{ message: 'boom' }] } });
    const { user, input, onRenamed } = renderPanel();
    await user.clear(input);
    await user.type(input, 'Other name{Enter}');
    expect(await screen.findByText(organisationMessages.renameFailed)).toBeInTheDocument();
    expect(input).toHaveValue('Hillside School');
    expect(onRenamed).not.toHaveBeenCalled();
  });

  it('sends nothing when the name did not change, or when the edit is abandoned with Escape', async () => {
    const server = serveRename();
    const { user, input } = renderPanel();
    await user.type(input, ' ');
    await user.tab();
    await user.clear(input);
    await user.type(input, 'Something else{Escape}');
    expect(input).toHaveValue('Hillside School');
    expect(server.requests).toHaveLength(0);
  });

  it('allows at most 128 characters, and is read-only for library managers', () => {
    const { input } = renderPanel({ readOnly: true });
    expect(input).toHaveAttribute('maxlength', '128');
    expect(input).toHaveAttribute('readonly');
  });

  it('looks read-only where it is, and says who can change it', () => {
    const { input } = renderPanel({ readOnly: true });
    // A read-only field drawn like an editable one invites a change that never saves.
    expect(input).toHaveAttribute('data-variant', 'filled');
    expect(input).toHaveAccessibleDescription('Only an admin of the organisation can change its name');
    expect(screen.queryByText('Saved when you leave the field')).not.toBeInTheDocument();
  });

  it('looks editable, and says when it saves, for an admin', () => {
    const { input } = renderPanel();
    expect(input).toHaveAttribute('data-variant', 'default');
    expect(input).toHaveAccessibleDescription('Saved when you leave the field');
  });
});
