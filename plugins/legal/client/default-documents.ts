// The text shown while the host has not written its own: each document's sections from this plugin's
// catalogue, filled in with the app name and the company settings (spec §3 Company).
import type { PublicSettings } from '@orepanel/sdk';
import type { TFunction } from 'i18next';
import type { LegalDocumentName } from './documents';
import type { LegalBlock } from './legal-text';

function text(settings: PublicSettings, key: string): string {
  const value = settings[key];
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/** Who runs the panel, as the defaults name it: the company, else the app's name. */
export function operatorName(settings: PublicSettings): string {
  return text(settings, 'company_name') || appName(settings);
}

export function appName(settings: PublicSettings): string {
  return text(settings, 'app_name') || 'Orepanel';
}

/** "Street 1, 12345 City, State, Country" from the parts the host filled in. */
export function companyAddress(settings: PublicSettings): string {
  const cityLine = [text(settings, 'company_zip'), text(settings, 'company_city')].filter(Boolean).join(' ');
  return [text(settings, 'company_address'), cityLine, text(settings, 'company_state'), text(settings, 'company_country')].filter(Boolean).join(', ');
}

/** A section of a default document: a heading, then paragraphs and at most one list, all i18n keys. */
interface DefaultSection {
  heading?: string;
  paragraphs: string[];
  list?: string[];
  /** the company's address and VAT number follow this section */
  withCompany?: boolean;
}

const PRIVACY: DefaultSection[] = [
  { paragraphs: ['privacy.default.intro'] },
  { heading: 'privacy.default.controller.heading', paragraphs: ['privacy.default.controller.body'], withCompany: true },
  {
    heading: 'privacy.default.data.heading',
    paragraphs: ['privacy.default.data.intro'],
    list: ['privacy.default.data.account', 'privacy.default.data.usage', 'privacy.default.data.technical'],
  },
  { heading: 'privacy.default.purposes.heading', paragraphs: ['privacy.default.purposes.body'] },
  { heading: 'privacy.default.cookies.heading', paragraphs: ['privacy.default.cookies.body'] },
  { heading: 'privacy.default.retention.heading', paragraphs: ['privacy.default.retention.body'] },
  { heading: 'privacy.default.rights.heading', paragraphs: ['privacy.default.rights.body'] },
  { heading: 'privacy.default.contact.heading', paragraphs: ['privacy.default.contact.body'] },
];

const TERMS: DefaultSection[] = [
  { paragraphs: ['terms.default.intro'] },
  { heading: 'terms.default.account.heading', paragraphs: ['terms.default.account.body'] },
  { heading: 'terms.default.coins.heading', paragraphs: ['terms.default.coins.body'] },
  {
    heading: 'terms.default.use.heading',
    paragraphs: ['terms.default.use.intro'],
    list: ['terms.default.use.illegal', 'terms.default.use.attacks', 'terms.default.use.abuse', 'terms.default.use.cheat'],
  },
  { heading: 'terms.default.availability.heading', paragraphs: ['terms.default.availability.body'] },
  { heading: 'terms.default.termination.heading', paragraphs: ['terms.default.termination.body'] },
  { heading: 'terms.default.liability.heading', paragraphs: ['terms.default.liability.body'] },
  { heading: 'terms.default.changes.heading', paragraphs: ['terms.default.changes.body'] },
  { heading: 'terms.default.contact.heading', paragraphs: ['terms.default.contact.body'], withCompany: true },
];

const SECTIONS: Record<LegalDocumentName, DefaultSection[]> = { 'privacy-policy': PRIVACY, 'terms-of-service': TERMS };

/** The generated default of `document` in the current language. */
export function defaultDocument(document: LegalDocumentName, t: TFunction, settings: PublicSettings): LegalBlock[] {
  const values = { appName: appName(settings), operator: operatorName(settings) };
  const address = companyAddress(settings);
  const vat = text(settings, 'company_vat');
  const blocks: LegalBlock[] = [];
  for (const section of SECTIONS[document]) {
    if (section.heading) blocks.push({ kind: 'heading', level: 1, text: t(section.heading, values) });
    for (const key of section.paragraphs) blocks.push({ kind: 'paragraph', text: t(key, values) });
    if (section.list) blocks.push({ kind: 'list', items: section.list.map((key) => t(key, values)) });
    if (section.withCompany) {
      const lines = [address && t('company.address', { address }), vat && t('company.vat', { vat })].filter(Boolean);
      if (lines.length > 0) blocks.push({ kind: 'paragraph', text: lines.join('\n') });
    }
  }
  return blocks;
}
