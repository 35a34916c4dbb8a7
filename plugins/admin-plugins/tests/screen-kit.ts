// What the page tests of /mc-admin/plugins share: the screen opened as this plugin's route, in
// English, for a session (root by default), with the API answers each test gives.
import { renderPlugin, type RenderedPlugin } from '@orepanel/sdk/testing';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';

export const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

type ScreenOptions = Omit<NonNullable<Parameters<typeof renderPlugin>[1]>, 'manifest' | 'route' | 'catalogues'>;

export function openPluginsScreen(options: ScreenOptions): Promise<RenderedPlugin> {
  return renderPlugin(plugin, { manifest, route: '/mc-admin/plugins', catalogues: { en }, session: ROOT, ...options });
}
