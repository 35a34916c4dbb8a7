// The mail templates screens: the list, create, edit (with the live preview) and delete.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'mail-templates',
  setup(ctx) {
    ctx.routes.provide('MailTemplatesPage', () => import('./MailTemplatesPage'));
    ctx.routes.provide('MailTemplateCreatePage', () => import('./MailTemplateCreatePage'));
    ctx.routes.provide('MailTemplateEditPage', () => import('./MailTemplateEditPage'));
    ctx.routes.provide('MailTemplateDeletePage', () => import('./MailTemplateDeletePage'));
  },
});
