// The backups plugin: the screens' API over the core's archive engine (ctx.panelBackup, handed to
// this built-in plugin because its plugin.json asks for the "panel-backup" privilege), the daily
// schedule with its retention, and the off-site column filled by the copy plugin when it is there.
import { defineServerPlugin, type PanelBackup } from '@orepanel/sdk/server';
import { Backups } from './backups';
import { registerBackupRoutes } from './routes';
import { nextSlotText, SCHEDULE_EVERY_MS, SCHEDULE_JOB, scheduledArchiveDue, scheduleSettings } from './schedule';
import { BackupWork } from './work';

export default defineServerPlugin<{ backups: Backups }>({
  id: 'backups',
  rateLimitPolicies: {
    // guessing the root password with a stolen root session: the restore form's confirmations
    'backups.restore': {
      scopes: [
        { by: 'ip', setting: 'backup_restore_attempts_per_ip' },
        { by: 'account', setting: 'backup_restore_attempts_per_account' },
      ],
      account: { session: true },
    },
  },
  register(app, ctx) {
    const archives: PanelBackup | null = ctx.panelBackup;
    if (!archives)
      throw new Error('backups: the panel did not hand over its archive engine (plugin.json must list "panel-backup" in privileges, and only a built-in plugin gets it)');
    const backups = new Backups(ctx, archives, new BackupWork(ctx));
    registerBackupRoutes(app, ctx, backups);
    return { backups };
  },
  async start(ctx, { backups }) {
    await backups.work.listen();
    ctx.jobs.every(SCHEDULE_JOB, SCHEDULE_EVERY_MS, async () => {
      const settings = await scheduleSettings(ctx);
      if (!settings.enabled) return 'The daily backup is switched off (setting backup_schedule_enabled).';
      const now = ctx.clock.now();
      if (!(await scheduledArchiveDue(backups.archives, now, settings.hour))) return `Today's backup is made; the next one is due at ${nextSlotText(now, settings.hour)}.`;
      const job = await backups.create('scheduled', null);
      if (!job) return 'Another backup job is running; the daily backup is made at the next run.';
      await backups.work.settled(job.id);
      const ended = backups.work.get(job.id);
      if (ended?.state !== 'done') throw new Error(`The daily backup failed: ${ended?.error?.message ?? 'unknown error'}`);
      return `Made ${ended.name ?? 'the daily backup'}; the next one is due at ${nextSlotText(ctx.clock.now(), settings.hour)}.`;
    });
  },
});
