// The tickets plugin's pages: customers open tickets and talk with staff (/ticket), staff answer them.
// Setup only hands the kernel lazy loaders; the kernel guards every route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'tickets',
  setup() {},
});
