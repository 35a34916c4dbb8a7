// Who owns a server or a queue entry: their username, a link to their admin page when the viewer may
// open it.
import { Link, theme, useHasPermission } from '@orepanel/sdk';
import type { OwnerRef } from '../../shared/api';
import { paths, PERMISSIONS } from '../paths';

export function OwnerLink({ owner }: { owner: OwnerRef | null }) {
  const mayOpen = useHasPermission(PERMISSIONS.usersEdit);
  if (!owner) return <>—</>;
  if (!mayOpen) return <span title={owner.uuid}>{owner.username}</span>;
  return (
    <Link to={paths.adminUser(owner.uuid)} title={owner.uuid} css={{ color: theme.colors.primaryHover, overflowWrap: 'anywhere' }}>
      {owner.username}
    </Link>
  );
}
