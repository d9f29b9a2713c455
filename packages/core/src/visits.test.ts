import { describe, expect, it } from 'vitest';
import { VISIT_REASONS, VISIT_REASON_OTHER, validateVisitReason, visitReasonText } from './visits.js';
import { validateWelcomeEmail } from './welcome-email.js';

it('offers six presets and Other', () => {
  expect(VISIT_REASONS).toHaveLength(6);
  expect(VISIT_REASON_OTHER).toBe('Other');
});

describe('validateVisitReason', () => {
  it.each([
    [null, '', 'Please choose a reason for your visit'],
    ['Check in on teacher activity', '', null],
    ['Provide teacher support', '', null],
    ['Something invented', '', 'Please choose a reason for your visit'],
    ['Other', '   ', 'Please choose a reason for your visit'],
    ['Other', 'x'.repeat(65), null],
    ['Other', 'x'.repeat(66), 'The reason must be at most 65 characters'],
  ])('%j %j → %j', (choice, other, expected) => {
    expect(validateVisitReason(choice, other)).toBe(expected);
  });
});

it('sends the preset or the trimmed free text', () => {
  expect(visitReasonText('Check library settings', 'ignored')).toBe('Check library settings');
  expect(visitReasonText('Other', '  Checking the new unit  ')).toBe('Checking the new unit');
});

it.each([
  [{ subject: 'Welcome', message: 'Hello' }, { subject: null, message: null }],
  [{ subject: ' ', message: '' }, { subject: 'Please include a subject', message: 'Please include a message' }],
])('validateWelcomeEmail %j', (input, expected) => {
  expect(validateWelcomeEmail(input)).toEqual(expected);
});
