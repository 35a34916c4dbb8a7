// The two documents: where each is served, its page, and the i18n key of its title.
export type LegalDocumentName = 'privacy-policy' | 'terms-of-service';

export interface LegalDocumentInfo {
  /** GET answer: `{ document, content, updated_at }` */
  api: string;
  path: string;
  titleKey: 'privacy.title' | 'terms.title';
  /** the other document, linked under this one */
  other: LegalDocumentName;
}

export const LEGAL_DOCUMENTS: Readonly<Record<LegalDocumentName, LegalDocumentInfo>> = {
  'privacy-policy': { api: '/api/legal/privacy-policy', path: '/privacy-policy', titleKey: 'privacy.title', other: 'terms-of-service' },
  'terms-of-service': { api: '/api/legal/terms-of-service', path: '/terms-of-service', titleKey: 'terms.title', other: 'privacy-policy' },
};

/** The answer of GET /api/legal/<document>. An empty `content` means the host wrote nothing. */
export interface LegalDocumentResponse {
  document: LegalDocumentName;
  content: string;
  updated_at: string | null;
}
