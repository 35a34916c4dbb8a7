import { AdPlacement } from './AdPlacement';

export default function DashboardAd() {
  return <AdPlacement setting="google_ads_slot_dashboard" />;
}
