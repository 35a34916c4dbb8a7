// The sdk's own texts in German; loaded when the panel switches to that language.
import type { SdkTexts } from '../sdk-texts';

const texts: SdkTexts = {
  loading: 'Wird geladen…',
  retry: 'Erneut versuchen',
  close: 'Schließen',
  showPassword: 'Passwort anzeigen',
  hidePassword: 'Passwort verbergen',
  pluginFailed: '„{{plugin}}“ konnte nicht angezeigt werden.',
  details: 'Details',
  somethingWentWrong: 'Etwas ist schiefgelaufen. Bitte versuche es erneut.',
  networkError: 'Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.',
  serverError: 'Auf dem Server ist ein Fehler aufgetreten. Bitte versuche es später erneut.',
  serverUnavailable: 'Der Server ist derzeit nicht verfügbar. Bitte versuche es später erneut.',
  nothingHere: 'Hier ist noch nichts.',
  dialogOk: 'OK',
  dialogNo: 'Nein',
  dialogCancel: 'Abbrechen',
  invalidEmail: 'Ungültige E-Mail-Adresse',
  invalidUrl: 'Ungültige URL',
  search: 'Suchen',
  clearSearch: 'Suche löschen',
  pagination: 'Seiten',
  previousPage: 'Zurück',
  nextPage: 'Weiter',
  pageOf: 'Seite {{page}} von {{pages}}',
  goToPage: 'Seite {{page}}',
  showingRange: '{{from}}–{{to}} von {{total}}',
  noResults: 'Nichts passt zu Ihrer Suche.',
  listFailed: 'Diese Liste konnte nicht geladen werden.',
  cancel: 'Abbrechen',
  actionFailed: 'Die Aktion konnte nicht ausgeführt werden.',
};

export default texts;
