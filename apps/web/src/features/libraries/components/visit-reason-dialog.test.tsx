import { validationMessages, VISIT_REASON_MAX, VISIT_REASONS } from '@quire/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../../test/render.js';
import { VisitReasonDialog } from './visit-reason-dialog.js';

function renderPicker() {
  const onVisit = vi.fn();
  renderAt(<VisitReasonDialog libraryName="Science Projects" busy={false} onVisit={onVisit} onClose={vi.fn()} />);
  return { onVisit, user: userEvent.setup() };
}

describe('the visit reason picker', () => {
  it('offers the six presets and Other', async () => {
    renderPicker();
    const radios = await screen.findAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual([...VISIT_REASONS, 'Other']);
  });

  it('refuses to visit without a reason', async () => {
    const { onVisit, user } = renderPicker();
    await user.click(await screen.findByRole('button', { name: 'Visit library' }));
    expect(screen.getByText(validationMessages.visitReasonRequired)).toBeInTheDocument();
    expect(onVisit).not.toHaveBeenCalled();
  });

  it('sends the preset chosen', async () => {
    const { onVisit, user } = renderPicker();
    await user.click(await screen.findByRole('radio', { name: 'Help teacher with content' }));
    await user.click(screen.getByRole('button', { name: 'Visit library' }));
    expect(onVisit).toHaveBeenCalledWith('Help teacher with content');
  });

  it("needs Other's text, keeps it to 65 characters, and sends it trimmed", async () => {
    const { onVisit, user } = renderPicker();
    await user.click(await screen.findByRole('radio', { name: 'Other' }));
    await user.click(screen.getByRole('button', { name: 'Visit library' }));
    expect(screen.getByText(validationMessages.visitReasonRequired)).toBeInTheDocument();
    expect(onVisit).not.toHaveBeenCalled();

    const field = screen.getByRole('textbox', { name: /Other reason/ });
    await user.click(field);
    await user.paste(`  ${'x'.repeat(80)}`);
    expect((field as HTMLInputElement).value).toHaveLength(VISIT_REASON_MAX);
    await user.clear(field);
    await user.type(field, '  Year-end review  ');
    await user.click(screen.getByRole('button', { name: 'Visit library' }));
    expect(onVisit).toHaveBeenCalledWith('Year-end review');
  });
});
