// The live-chat providers of SPEC §1 ("one of six chat providers is chosen by configuration"):
// each loads its official script (the server's CSP allows that provider's origins only) and is
// told who the signed-in player is, with the identity proof the server computed where the
// provider has one. `reset` forgets the player (logout, or before loading another identity).
import { loadScript } from '@/lib/load-script';
import type { ChatIdentity } from './api';

export interface ChatProvider {
  /** Loads the widget for `id` (the provider's account id) and identifies `identity` (null: a guest). */
  load: (id: string, identity: ChatIdentity | null) => Promise<void>;
  /** Forgets the current visitor (the widget is loaded again with the next identity). */
  reset: () => void;
}

type Fn = (...args: unknown[]) => unknown;
type Globals = Record<string, unknown>;
const g = globalThis as unknown as Globals;
const call = (name: string, ...args: unknown[]) => {
  const fn = g[name];
  if (typeof fn === 'function') (fn as Fn)(...args);
};

export const CHAT_PROVIDERS: Record<string, ChatProvider> = {
  livechat: {
    load: async (id, identity) => {
      g.__lc = { license: Number(id) || id, visitor: identity ? { name: identity.name ?? '', email: identity.email ?? '' } : undefined };
      await loadScript('https://cdn.livechatinc.com/tracking.js');
    },
    reset: () => {
      const widget = g.LiveChatWidget as { call?: Fn } | undefined;
      widget?.call?.('destroy');
    },
  },
  intercom: {
    load: async (id, identity) => {
      const settings = {
        app_id: id,
        ...(identity ? { user_id: identity.user_id, email: identity.email ?? undefined, name: identity.name ?? undefined, user_hash: identity.signature ?? undefined } : {}),
      };
      g.intercomSettings = settings;
      await loadScript(`https://widget.intercom.io/widget/${encodeURIComponent(id)}`);
      call('Intercom', 'boot', settings);
    },
    reset: () => {
      call('Intercom', 'shutdown');
    },
  },
  zendesk: {
    load: async (id, identity) => {
      await loadScript(`https://static.zdassets.com/ekr/snippet.js?key=${encodeURIComponent(id)}`);
      const jwt = identity?.signature;
      if (jwt) call('zE', 'messenger', 'loginUser', (callback: (token: string) => void) => { callback(jwt); });
    },
    reset: () => {
      call('zE', 'messenger', 'logoutUser');
    },
  },
  crisp: {
    load: async (id, identity) => {
      const queue = (g.$crisp as unknown[][] | undefined) ?? [];
      g.$crisp = queue;
      g.CRISP_WEBSITE_ID = id;
      if (identity?.email) queue.push(['set', 'user:email', identity.signature ? [identity.email, identity.signature] : [identity.email]]);
      if (identity?.name) queue.push(['set', 'user:nickname', [identity.name]]);
      await loadScript('https://client.crisp.chat/l.js');
    },
    reset: () => {
      (g.$crisp as unknown[][] | undefined)?.push(['do', 'session:reset']);
    },
  },
  tawkto: {
    load: async (id, identity) => {
      const api = (g.Tawk_API as Globals | undefined) ?? {};
      g.Tawk_API = api;
      if (identity) api.visitor = { name: identity.name ?? '', email: identity.email ?? '', hash: identity.signature ?? '' };
      await loadScript(`https://embed.tawk.to/${id.split('/').map(encodeURIComponent).join('/')}`);
    },
    reset: () => {
      const api = g.Tawk_API as { logout?: Fn } | undefined;
      api?.logout?.();
    },
  },
  freshchat: {
    load: async (id, identity) => {
      const [token = '', host = 'https://wchat.freshchat.com'] = id.split('@');
      await loadScript('https://wchat.freshchat.com/js/widget.js');
      const widget = g.fcWidget as { init?: Fn } | undefined;
      widget?.init?.({
        token,
        host: host.startsWith('https://') ? host : `https://${host}`,
        ...(identity ? { externalId: identity.user_id, email: identity.email ?? undefined, firstName: identity.name ?? undefined } : {}),
      });
    },
    reset: () => {
      const widget = g.fcWidget as { user?: { clear?: Fn }; destroy?: Fn } | undefined;
      widget?.user?.clear?.();
      widget?.destroy?.();
    },
  },
};
