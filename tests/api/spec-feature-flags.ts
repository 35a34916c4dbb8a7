// Spec §3's feature flags, in the settings screen's order: whichever plugin (or, until its feature
// comes, the core) declares each, the settings call and the settings screen carry all of them.
export const SPEC_FEATURE_FLAGS = [
  'afk_enabled',
  'allow_coins_sharing',
  'allow_public_profiles',
  'allow_servers',
  'allow_tickets',
  'code_redemption_enabled',
  'credits_recharge_enabled',
  'early_supporters_enabled',
  'leaderboard_enabled',
  'referrals_enabled',
  'server_renew_enabled',
  'store_enabled',
  'zero_trust_enabled',
] as const;
