import { Tooltip } from '@mantine/core';
import { auditActorKindLabels, type AuditEvent } from '@quire/core';

/** The actor as a row shows it: the name and e-mail kept at the time, or what acted (a platform, a job). */
export function actorText(entry: Pick<AuditEvent, 'actor'>): string {
  const { name, email, kind } = entry.actor;
  const who = name && email ? `${name} <${email}>` : (email ?? name ?? auditActorKindLabels[kind]);
  return kind === 'user' ? who : `${who} (${auditActorKindLabels[kind]})`;
}

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The admin's local time; the full UTC time on hover and on focus (the cell is reachable by Tab). */
export function LocalTime({ iso }: { iso: string }) {
  const utc = `${iso.replace('T', ' ').replace('Z', '')} UTC`;
  return (
    <Tooltip label={utc} events={{ hover: true, focus: true, touch: true }}>
      <time dateTime={iso} tabIndex={0} aria-label={`${localFormat.format(new Date(iso))} (${utc})`} data-utc={iso}>
        {localFormat.format(new Date(iso))}
      </time>
    </Tooltip>
  );
}
