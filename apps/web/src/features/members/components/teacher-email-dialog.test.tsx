import { teacherMessages, validationMessages } from '@quire/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { buildMember } from '../../../test/fixtures.js';
import { daysFromNow, PAST_DATE_TEXT, TeacherEmailDialog } from './teacher-email-dialog.js';

afterEach(() => vi.unstubAllGlobals());

const preview = (subject = 'Welcome to Quire') => ({
  body: { subject, defaultMessage: 'Hello from your school.', plain: '…', recipients: 2, errors: [] },
});

function renderDialog(kind: 'WELCOME' | 'CERTIFICATION' = 'WELCOME') {
  const recipients = [buildMember({ email: 'ann@school.test' }), buildMember({ email: 'bob@school.test' })];
  const onClose = vi.fn();
  renderAt(<TeacherEmailDialog orgId="org-1" kind={kind} recipients={recipients} onClose={onClose} />);
  return { recipients, onClose, user: userEvent.setup() };
}

describe('the teacher e-mail flow', () => {
  it('shows the fixed subject read-only and requires a message', async () => {
    const api = fakeFetch({ 'gql teacherEmailPreview': preview() });
    const { user } = renderDialog();
    expect(await screen.findByRole('dialog', { name: 'Review message details' })).toBeInTheDocument();
    const subject = await screen.findByRole('textbox', { name: 'Subject' });
    expect(subject).toHaveValue('Welcome to Quire');
    expect(subject).toHaveAttribute('readonly');
    const message = screen.getByRole('textbox', { name: 'Message' });
    expect(message).toHaveValue('Hello from your school.');
    await user.clear(message);
    await user.type(message, '   ');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(validationMessages.messageRequired)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Review message details' })).toBeInTheDocument();
    expect(api.callsTo('sendEmail')).toHaveLength(0);
  });

  it('sends once on a double click on Send, with an idempotency key', async () => {
    const api = fakeFetch({ 'gql teacherEmailPreview': preview(), 'gql sendEmail': { body: { sentTo: ['m'], errors: [] } } });
    const { user } = renderDialog();
    await screen.findByRole('textbox', { name: 'Message' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.dblClick(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('dialog', { name: 'Your message has been sent' })).toBeInTheDocument();
    expect(api.callsTo('sendEmail')).toHaveLength(1);
    expect(api.callsTo('sendEmail')[0]?.headers['idempotency-key']).toMatch(/.{16,}/);
  });

  it('opens on the message once it has loaded, and each step takes focus, never left on the page body', async () => {
    fakeFetch({ 'gql teacherEmailPreview': preview(), 'gql sendEmail': { body: { sentTo: ['m'], errors: [] } } });
    const { user } = renderDialog();
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await waitFor(() => expect(message).toHaveFocus(), { timeout: 5000 });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm recipients and send' });
    await waitFor(() => expect(confirm.contains(document.activeElement)).toBe(true), { timeout: 5000 });
    expect(document.activeElement).not.toBe(document.body);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const done = await screen.findByRole('button', { name: 'Done' });
    await waitFor(() => expect(done).toHaveFocus(), { timeout: 5000 });
  });

  it('refuses a Create account by date in the past', async () => {
    const api = fakeFetch({ 'gql teacherEmailPreview': preview() });
    const { user } = renderDialog();
    const date = await screen.findByLabelText('Create account by');
    await user.clear(date);
    await user.type(date, '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(PAST_DATE_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Review message details' })).toBeInTheDocument();
    expect(api.callsTo('sendEmail')).toHaveLength(0);
  });

  it('refuses an empty subject', async () => {
    fakeFetch({ 'gql teacherEmailPreview': preview('') });
    const { user } = renderDialog();
    await screen.findByRole('textbox', { name: 'Subject' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(validationMessages.subjectRequired)).toBeInTheDocument();
  });

  it('confirms the recipients, sends, and says the message has been sent', async () => {
    const api = fakeFetch({
      'gql teacherEmailPreview': preview(),
      'gql sendEmail': { body: { sentTo: ['m1'], errors: [teacherMessages.studentAccountsNotEmailed] } },
    });
    const { user, recipients } = renderDialog();
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await user.clear(message);
    await user.type(message, 'Please join us');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Confirm recipients and send' })).toBeInTheDocument();
    expect(screen.getByText('ann@school.test')).toBeInTheDocument();
    expect(screen.getByText('bob@school.test')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('dialog', { name: 'Your message has been sent' })).toBeInTheDocument();
    expect(screen.getByText(teacherMessages.studentAccountsNotEmailed)).toBeInTheDocument();
    expect(api.callsTo('sendEmail')[0]?.body).toMatchObject({
      variables: {
        orgId: 'org-1',
        email: { kind: 'WELCOME', subject: 'Welcome to Quire', body: { plain: 'Please join us' }, members: recipients.map((m) => m.id), date: daysFromNow(14) },
      },
    });
  });

  it("shows 'Error sending welcome email' when the welcome e-mail fails", async () => {
    fakeFetch({ 'gql teacherEmailPreview': preview(), 'gql sendEmail': { body: { data: null, errors: [{ message: 'mail down' }] } } });
    const { user } = renderDialog('WELCOME');
    await screen.findByRole('textbox', { name: 'Message' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText(teacherMessages.welcomeEmailFailed)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm recipients and send' })).toBeInTheDocument();
  });

  it('a failed certification request says so, not "welcome email"', async () => {
    fakeFetch({ 'gql teacherEmailPreview': preview('Get certified with Quire'), 'gql sendEmail': { body: { data: null, errors: [{ message: 'mail down' }] } } });
    const { user } = renderDialog('CERTIFICATION');
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByLabelText('Create account by')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText(teacherMessages.certificationRequestFailed)).toBeInTheDocument();
    expect(screen.queryByText(teacherMessages.welcomeEmailFailed)).not.toBeInTheDocument();
  });

  it('shows the whole e-mail that will be sent before Send: subject, message, licence sentence, date and link', async () => {
    const whole = [
      'Please join us',
      'Your Quire licence gives you unlimited libraries and up to 1000 books, with real-time collaboration with your students and co-teachers.',
      'Please create your account by 5th March 2099:',
      'http://localhost:3000/sign-in/register/ann%40school.test',
    ].join('\n\n');
    const api = fakeFetch({
      'gql teacherEmailPreview': (call) => {
        const variables = (call.body as { variables: { message?: string } }).variables;
        return { body: { subject: 'Welcome to Quire', defaultMessage: 'Hello from your school.', plain: variables.message ? whole : '…', recipients: 2, errors: [] } };
      },
    });
    const { user } = renderDialog('WELCOME');
    const message = await screen.findByRole('textbox', { name: 'Message' });
    await user.clear(message);
    await user.type(message, 'Please join us');
    const date = screen.getByLabelText('Create account by');
    await user.clear(date);
    await user.type(date, '2099-03-05');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const email = await screen.findByRole('region', { name: /The email as ann@school.test receives it/ });
    expect(email).toHaveTextContent('Subject: Welcome to Quire');
    expect(await within(email).findByText(/unlimited libraries and up to 1000 books/)).toBeInTheDocument();
    expect(email).toHaveTextContent('Please create your account by 5th March 2099');
    expect(email).toHaveTextContent('http://localhost:3000/sign-in/register/ann%40school.test');
    const asked = api.callsTo('teacherEmailPreview').map((c) => (c.body as { variables: Record<string, unknown> }).variables);
    expect(asked).toContainEqual(expect.objectContaining({ message: 'Please join us', date: '2099-03-05' }));
  });
});
