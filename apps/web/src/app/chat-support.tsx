import { useEffect, useRef } from 'react';
import { apiRequest, serviceUrl } from '../lib/api/index.js';
import { bootSettings, intercom, loadIntercom } from '../lib/chat-support/intercom.js';
import { useConsoleConfig } from '../lib/console-config.js';
import { useSession } from '../lib/session/index.js';

/**
 * The chat-support widget (spec §1, docs/chat-support.md). Off unless the server names a provider: then no
 * script, no request. Otherwise it boots once the identity hash (GET {api}/users/v2/{uid}/{chat-support}/
 * identity-verification) and the organisation are known, updates the organisation when the admin switches,
 * and shuts down on sign-out, booting again for the next user. Mounted once, above every screen.
 */
export function ChatSupport() {
  const config = useConsoleConfig();
  const session = useSession();
  const provider = config.chatSupportProvider;
  const appId = config.chatSupportAppId;
  const scriptUrl = config.chatSupportScriptUrl;
  const user = session.status === 'signed-in' ? session.user : null;
  const organisation = session.currentOrganisation;
  /** Who the widget was booted for, and with which organisation. */
  const booted = useRef<{ userId: string; organisationId: string } | null>(null);

  useEffect(() => {
    if (provider !== 'intercom' || !appId || !scriptUrl) return undefined;
    if (!user || !organisation) {
      if (booted.current && !user) {
        intercom('shutdown');
        booted.current = null;
      }
      return undefined;
    }
    if (booted.current?.userId === user.uid) {
      if (booted.current.organisationId !== organisation.id) {
        intercom('update', { company: { id: organisation.id, name: organisation.name } });
        booted.current = { userId: user.uid, organisationId: organisation.id };
      }
      return undefined;
    }
    const controller = new AbortController();
    void (async () => {
      let userHash: string;
      try {
        const text = await apiRequest<string>(serviceUrl('api', '/users/v2', user.uid, provider, 'identity-verification'), { responseType: 'text', signal: controller.signal });
        // The call answers the hash as text; a service that answers it as a JSON string works too.
        userHash = text.trim().startsWith('"') ? String(JSON.parse(text)) : text.trim();
      } catch {
        // Without a verified identity the widget stays off: support would not know who is asking.
        return;
      }
      if (controller.signal.aborted) return;
      if (booted.current) intercom('shutdown');
      loadIntercom(scriptUrl, appId);
      intercom('boot', bootSettings({ appId, userId: user.uid, email: user.email, name: user.displayName, userHash, organisation: { id: organisation.id, name: organisation.name } }));
      booted.current = { userId: user.uid, organisationId: organisation.id };
    })();
    return () => controller.abort();
  }, [provider, appId, scriptUrl, user, organisation]);

  return null;
}
