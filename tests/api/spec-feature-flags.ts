// Spec §3's feature flags, in the settings screen's order: whichever plugin (or, until its feature
// comes, the core) declares each, the settings call and the settings screen carry all of them.
export { SPEC_FEATURE_FLAGS } from '../../sdk/spec-settings';
