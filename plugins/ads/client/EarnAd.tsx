import { AdPlacement } from './AdPlacement';

export default function EarnAd() {
  return <AdPlacement setting="google_ads_slot_earn" />;
}
