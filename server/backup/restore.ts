// Restoring an archive over the running panel (see restoreArchive).
import type { BackupManifest, BackupProgress, LocalBackup } from '../../sdk/server/panel-backup';
import type { PanelBackups, PanelBackupsOptions } from './panel-backups';

export async function restoreArchive(
  backups: PanelBackups,
  _options: PanelBackupsOptions,
  name: string,
  progress: (progress: BackupProgress) => void,
): Promise<{ manifest: BackupManifest; beforeRestore: LocalBackup }> {
  const archive = await backups.openNamed(name);
  await backups.checkCompatible(archive.manifest);
  await backups.walk(archive, {}, progress);
  throw new Error('restore is not available yet');
}
