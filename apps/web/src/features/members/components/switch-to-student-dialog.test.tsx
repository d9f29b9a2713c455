import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, type FakeHandler } from '../../../test/fake-fetch.js';
import { renderAt } from '../../../test/render.js';
import { buildMember } from '../../../test/fixtures.js';
import { SwitchToStudentDialog } from './switch-to-student-dialog.js';

afterEach(() => vi.unstubAllGlobals());

describe('Switch to student', () => {
  it('switches one teacher after another and shows a failure beside its e-mail', async () => {
    const members = [buildMember({ email: 'ann@school.test' }), buildMember({ email: 'bob@school.test' }), buildMember({ email: 'cy@school.test' })];
    const order: string[] = [];
    let running = 0;
    const convert = (memberId: string): FakeHandler => async () => {
      running += 1;
      expect(running).toBe(1);
      order.push(memberId);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      if (memberId === members[1]?.id) {
        return { status: 409, body: { code: 'pending', message: "This teacher hasn't signed up yet, so they can't be switched to a student" } };
      }
      return { body: { memberId, organisationId: 'org-1', isStudent: true, myBooksLibrary: { id: `lib-${memberId}`, name: 'My books', created: true } } };
    };
    fakeFetch(Object.fromEntries(members.map((m) => [`POST /api/users/v2/${m.id}/convert-to-student`, convert(m.id)])));
    const onFinished = vi.fn();
    renderAt(<SwitchToStudentDialog orgId="org-1" members={members} onClose={vi.fn()} onFinished={onFinished} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Switch to student' }));
    await waitFor(() => expect(onFinished).toHaveBeenCalledWith([members[0]?.id, members[2]?.id]));
    expect(order).toEqual(members.map((m) => m.id));
    const table = screen.getByRole('table', { name: 'Teachers to switch to student' });
    expect(within(within(table).getByRole('row', { name: /ann@school/ })).getByText('Switched')).toBeInTheDocument();
    expect(
      within(within(table).getByRole('row', { name: /bob@school/ })).getByText("This teacher hasn't signed up yet, so they can't be switched to a student"),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Done' })).toBeInTheDocument();
  });

  it('runs once on a double click and sends an idempotency key per teacher', async () => {
    const members = [buildMember({ email: 'ann@school.test' }), buildMember({ email: 'bob@school.test' })];
    const server = fakeFetch(Object.fromEntries(members.map((m) => [`POST /api/users/v2/${m.id}/convert-to-student`, () => ({ body: { memberId: m.id, organisationId: 'org-1', isStudent: true, myBooksLibrary: { id: `lib-${m.id}`, name: 'My books', created: true } } })])));
    const onFinished = vi.fn();
    renderAt(<SwitchToStudentDialog orgId="org-1" members={members} onClose={vi.fn()} onFinished={onFinished} />);
    const user = userEvent.setup();
    await user.dblClick(screen.getByRole('button', { name: 'Switch to student' }));
    await waitFor(() => expect(onFinished).toHaveBeenCalledTimes(1));
    const calls = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/convert-to-student'));
    expect(calls.map((c) => c.path)).toEqual(members.map((m) => `/api/users/v2/${m.id}/convert-to-student`));
    const keys = calls.map((c) => c.headers['idempotency-key']);
    expect(keys.every((k) => typeof k === 'string' && k.length >= 16)).toBe(true);
    // One action, one key per request: the server remembers keys per user, not per address.
    expect(new Set(keys).size).toBe(2);
  });
});
