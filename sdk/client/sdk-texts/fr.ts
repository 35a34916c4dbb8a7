// The sdk's own texts in French; loaded when the panel switches to that language.
import type { SdkTexts } from '../sdk-texts';

const texts: SdkTexts = {
  loading: 'Chargement…',
  retry: 'Réessayer',
  close: 'Fermer',
  showPassword: 'Afficher le mot de passe',
  hidePassword: 'Masquer le mot de passe',
  pluginFailed: '« {{plugin}} » n’a pas pu être affiché.',
  details: 'Détails',
  somethingWentWrong: 'Une erreur est survenue. Veuillez réessayer.',
  networkError: 'Le serveur est injoignable. Vérifiez votre connexion et réessayez.',
  serverError: 'Le serveur a rencontré un problème. Veuillez réessayer plus tard.',
  serverUnavailable: 'Le serveur est actuellement indisponible. Veuillez réessayer plus tard.',
  nothingHere: 'Rien pour le moment.',
  dialogOk: 'OK',
  dialogNo: 'Non',
  dialogCancel: 'Annuler',
  invalidEmail: 'Adresse e-mail invalide',
  invalidUrl: 'URL invalide',
  search: 'Rechercher',
  clearSearch: 'Effacer la recherche',
  pagination: 'Pages',
  previousPage: 'Précédent',
  nextPage: 'Suivant',
  pageOf: 'Page {{page}} sur {{pages}}',
  goToPage: 'Page {{page}}',
  showingRange: '{{from}}–{{to}} sur {{total}}',
  noResults: 'Rien ne correspond à votre recherche.',
  listFailed: 'Cette liste n’a pas pu être chargée.',
  cancel: 'Annuler',
  actionFailed: 'L’action n’a pas pu être effectuée.',
};

export default texts;
