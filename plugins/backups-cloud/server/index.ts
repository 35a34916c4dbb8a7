// The off-site copies of the panel's backups ("cloud backup integration", spec §6): any S3-compatible
// bucket, set up on the screen by admin.root, to which local archives (ctx.panelBackup, handed to this
// built-in plugin for its "panel-backup" privilege) are uploaded — by hand, and after each scheduled
// backup — and from which they are downloaded back, with the bucket's own retention. The backups
// screen learns which archives are held off-site from the service this plugin provides.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { BACKUP_REMOTE_COPIES } from '../../backups/contract';
import { OffsiteCopies } from './offsite';
import { registerCloudRoutes } from './routes';
import { Transfers } from './transfers';

export default defineServerPlugin<{ offsite: OffsiteCopies }>({
  id: 'backups-cloud',
  register(app, ctx) {
    const archives = ctx.panelBackup;
    if (!archives) {
      throw new Error('backups-cloud: the panel did not hand over its archive engine (plugin.json must list "panel-backup" in privileges, and only a built-in plugin gets it)');
    }
    const offsite = new OffsiteCopies(ctx, archives, new Transfers(ctx));
    registerCloudRoutes(app, ctx, offsite);
    ctx.services.provide(BACKUP_REMOTE_COPIES, offsite.remoteCopies());
    return { offsite };
  },
  async start(ctx, { offsite }) {
    await offsite.transfers.listen();
    // the backups plugin emits this once an archive is complete; only the daily ones go up on their
    // own (a manual one is uploaded by hand, a before-restore one stays with the panel it describes)
    ctx.events.on('backup.created', ({ name, kind }) => {
      if (kind !== 'scheduled') return;
      // not awaited: the backups job that emitted it must not wait for an upload of many gigabytes
      void offsite.autoUpload(name).catch((error: unknown) => ctx.log.error({ err: error, name }, 'backups-cloud: the automatic upload failed to start'));
    });
  },
});
