// The servers plugin's contract: the one file of it another plugin may import (a plugin that lists
// "servers" in its plugin.json `requires`, or in `optional` and asks with ctx.services.find, which
// answers null while the servers plugin is off). It names the service and its types and imports
// nothing of the plugin itself.
//
// servers.owned — whose a server is: a user's servers (a support ticket names one of them, and staff
// see the customer's servers beside the ticket) and the check that a server is theirs. Read-only.
import { createServiceRef } from '@orepanel/sdk/server';

export interface OwnedServer {
  id: number;
  /** the owner's account id */
  userId: number;
  name: string;
  /** the game panel's short identifier of the server */
  identifier: string;
  status: 'active' | 'suspended';
  /** the server's page on the host's game panel (Pterodactyl), for staff; null when the panel address is not set */
  panelUrl: string | null;
}

export interface OwnedServers {
  /** the user's servers, newest first (at most `limit`, default 100) */
  listOf(userId: number, limit?: number): Promise<OwnedServer[]>;
  /** server `serverId` when it is `userId`'s, else null (another's and an unknown one alike) */
  ownedBy(userId: number, serverId: number): Promise<OwnedServer | null>;
  /** server `serverId` whoever owns it, or null: for staff, who see a ticket's linked server */
  get(serverId: number): Promise<OwnedServer | null>;
}

export const OWNED_SERVERS = createServiceRef<OwnedServers>('servers.owned');
