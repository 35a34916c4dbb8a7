// The leaderboard plugin: /leaderboard. Setup only hands the kernel the page's lazy loader.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'leaderboard',
  setup(ctx) {
    ctx.routes.provide('LeaderboardPage', () => import('./LeaderboardPage'));
  },
});
