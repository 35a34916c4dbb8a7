// The sdk's own texts in Romanian; loaded when the panel switches to that language.
import type { SdkTexts } from '../sdk-texts';

const texts: SdkTexts = {
  loading: 'Se încarcă…',
  retry: 'Încearcă din nou',
  close: 'Închide',
  showPassword: 'Arată parola',
  hidePassword: 'Ascunde parola',
  pluginFailed: '„{{plugin}}” nu a putut fi afișat.',
  details: 'Detalii',
  somethingWentWrong: 'Ceva nu a mers bine. Încearcă din nou.',
  networkError: 'Serverul nu a putut fi contactat. Verifică-ți conexiunea și încearcă din nou.',
  serverError: 'Serverul a întâmpinat o problemă. Încearcă din nou mai târziu.',
  serverUnavailable: 'Serverul este momentan indisponibil. Încearcă din nou mai târziu.',
  nothingHere: 'Nimic aici deocamdată.',
  dialogOk: 'OK',
  dialogNo: 'Nu',
  dialogCancel: 'Anulează',
  invalidEmail: 'Adresă de email invalidă',
  invalidUrl: 'URL invalid',
  search: 'Caută',
  clearSearch: 'Șterge căutarea',
  pagination: 'Pagini',
  previousPage: 'Înapoi',
  nextPage: 'Înainte',
  pageOf: 'Pagina {{page}} din {{pages}}',
  goToPage: 'Pagina {{page}}',
  showingRange: '{{from}}–{{to}} din {{total}}',
  noResults: 'Nimic nu se potrivește căutării.',
  listFailed: 'Lista nu a putut fi încărcată.',
  cancel: 'Anulează',
  actionFailed: 'Acțiunea nu a putut fi făcută.',
};

export default texts;
