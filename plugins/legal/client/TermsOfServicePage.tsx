// /terms-of-service
import { LegalDocumentPage } from './LegalDocumentPage';

export default function TermsOfServicePage() {
  return <LegalDocumentPage document="terms-of-service" />;
}
