// The developer debug panel (spec §2 App shell): an overlay the kernel opens with Ctrl+I or its
// launcher on every page. Setup keeps the kernel's diagnostics reader for the panel and hands over a
// lazy loader: the panel's code is fetched the first time it is opened.
import { definePlugin } from '@orepanel/sdk';
import { keepDiagnostics } from './recorded';

export default definePlugin({
  id: 'debug-panel',
  setup(ctx) {
    keepDiagnostics(ctx.diagnostics);
    ctx.overlays.provide('DebugPanel', () => import('./DebugPanel'));
  },
});
