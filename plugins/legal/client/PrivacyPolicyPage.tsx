// /privacy-policy
import { LegalDocumentPage } from './LegalDocumentPage';

export default function PrivacyPolicyPage() {
  return <LegalDocumentPage document="privacy-policy" />;
}
