// What uses a library picture. The server catalog keeps a picture as an address (its image field);
// this plugin asks the catalog's service (server-catalog.catalog, an optional dependency) which
// locations, egg categories and eggs point at the picture's public path. The catalog knows nothing
// of the library, and each plugin works while the other is off: without the catalog nothing can
// use a picture (it shows nowhere), so a delete is allowed.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { SERVER_CATALOG } from '../../server-catalog/contract';
import { libraryKeyOf, type ImageUser, type ImageUserKind } from '../shared/image-rules';

export type { ImageUser, ImageUserKind } from '../shared/image-rules';

const KIND_ORDER: Readonly<Record<ImageUserKind, number>> = { location: 0, category: 1, egg: 2 };

export class ImageUsage {
  constructor(private readonly ctx: Pick<ServerPluginContext, 'services'>) {}

  /** Every catalog row whose image is the picture stored under fileKey, locations first, by name. */
  async usersOf(fileKey: string): Promise<ImageUser[]> {
    const catalog = this.ctx.services.find(SERVER_CATALOG);
    if (!catalog) return [];
    const [locations, categories, eggs] = await Promise.all([catalog.locations(), catalog.categories(), catalog.eggs()]);
    const uses = (row: { image: string | null }) => row.image !== null && libraryKeyOf(row.image) === fileKey;
    const users: ImageUser[] = [
      ...locations.filter(uses).map((row) => ({ kind: 'location' as const, id: row.id, name: row.name })),
      ...categories.filter(uses).map((row) => ({ kind: 'category' as const, id: row.id, name: row.name })),
      ...eggs.filter(uses).map((row) => ({ kind: 'egg' as const, id: row.id, name: row.name })),
    ];
    return users.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name) || a.id - b.id);
  }
}

/** "location Frankfurt, egg Paper": the users in words, for the refusal's message. */
export function describeUsers(users: readonly ImageUser[]): string {
  return users.map((user) => `${user.kind === 'category' ? 'egg category' : user.kind} ${user.name}`).join(', ');
}
