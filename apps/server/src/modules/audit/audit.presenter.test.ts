import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS } from '@quire/core';
import { AuditCsvWriter, auditCsvRecord, presentAuditEvent } from './audit.presenter.js';
import type { AuditExportRow, AuditRow } from './audit.repository.js';

/** Text with what CSV and the formula rule care about: separators, quotes, line breaks, formula starts, spaces, non-ASCII. */
const text = fc.string({ unit: fc.constantFrom(';', ',', '"', '\r', '\n', '\t', ' ', '=', '+', '-', '@', 'a', 'Z', '7', 'é', '日', '🎓', '\\'), maxLength: 10 });
const nullable = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null });
/** Old and new values as writers record them (objects of the same keys), and as anything else might be. */
const value = fc.oneof(
  fc.constant(null),
  text,
  fc.integer(),
  fc.dictionary(fc.oneof(text, fc.constantFrom('10', '2', 'license')), fc.oneof(nullable(text), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.oneof(text, fc.integer()), { maxLength: 2 })), { maxKeys: 4 }),
);
const target = fc.record({ type: fc.constantFrom('member', 'license', 'library', 'organisation'), id: text, label: nullable(text) });

const row: fc.Arbitrary<AuditRow> = fc.record({
  id: fc.bigInt({ min: 1n, max: 2n ** 62n }).map(String),
  at: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).chain((date) =>
    fc.integer({ min: 0, max: 999 }).map((micro) => `${date.toISOString().slice(0, 23)}${String(micro).padStart(3, '0')}Z`),
  ),
  organisation_id: fc.constant('org'),
  organisation_name: text,
  actor_user_id: nullable(text),
  actor_email: nullable(text),
  actor_name: nullable(text),
  actor_kind: fc.constantFrom(...AUDIT_ACTOR_KINDS),
  action: fc.oneof(fc.constantFrom(...AUDIT_ACTIONS), fc.constantFrom('legacy.unknown', '=cmd|x')),
  target_type: nullable(text),
  target_ids: fc.array(text, { maxLength: 6 }),
  targets: fc.array(target, { maxLength: 6 }),
  old_value: value,
  new_value: value,
  details: fc.constant({}),
  ip: nullable(text),
  user_agent: nullable(text),
  outcome: fc.constantFrom('success' as const, 'refused' as const),
  error_code: nullable(text),
});

/** The row as the export's statement reads it. */
function exportRowOf(entry: AuditRow): AuditExportRow {
  return {
    id: entry.id, at: entry.at, organisation_name: entry.organisation_name, actor_email: entry.actor_email, actor_name: entry.actor_name,
    actor_kind: entry.actor_kind, action: entry.action, target_ids: entry.target_ids,
    targets: entry.targets, old_value: entry.old_value, new_value: entry.new_value, ip: entry.ip, user_agent: entry.user_agent,
    outcome: entry.outcome, error_code: entry.error_code,
  };
}

describe('AuditCsvWriter', () => {
  it('writes each entry as the screen’s words would make it, for a school and for a district', () => {
    for (const district of [false, true]) {
      const writer = new AuditCsvWriter(district);
      fc.assert(
        fc.property(row, (entry) => {
          expect(writer.record(exportRowOf(entry))).toBe(auditCsvRecord(presentAuditEvent(entry), district));
        }),
        { numRuns: 1500 },
      );
    }
  });
});
