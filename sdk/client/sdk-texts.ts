// The sdk's own interface texts (UI kit, plugin boundary, dialog defaults), namespace `sdk`. English
// ships in the first-load bundle; each other language is a small chunk fetched when the panel
// switches to it. The English dialog texts are the spec's defaults (§5 validation texts, §9 buttons).
import type { Language } from '../types';

export const SDK_NAMESPACE = 'sdk';

export const SDK_TEXTS_EN = {
  loading: 'Loading…',
  retry: 'Try again',
  close: 'Close',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  pluginFailed: '“{{plugin}}” could not be displayed.',
  details: 'Details',
  somethingWentWrong: 'Something went wrong. Please try again.',
  networkError: 'The server could not be reached. Check your connection and try again.',
  serverError: 'The server had a problem. Please try again later.',
  serverUnavailable: 'The server is currently unavailable. Please try again later.',
  nothingHere: 'Nothing here yet.',
  dialogOk: 'OK',
  dialogNo: 'No',
  dialogCancel: 'Cancel',
  invalidEmail: 'Invalid email address',
  invalidUrl: 'Invalid URL',
  search: 'Search',
  clearSearch: 'Clear search',
  pagination: 'Pages',
  previousPage: 'Previous',
  nextPage: 'Next',
  pageOf: 'Page {{page}} of {{pages}}',
  goToPage: 'Page {{page}}',
  showingRange: '{{from}}–{{to}} of {{total}}',
  noResults: 'Nothing matches your search.',
  listFailed: 'This list could not be loaded.',
  cancel: 'Cancel',
  // a form of a pre-rendered page sent before (or without) the page's script, which it needs (issue 15)
  scriptRequired: 'This form needs JavaScript: please enable it in your browser and reload the page.',
  actionFailed: 'It could not be done.',
  ledgerTitle: 'Transactions',
  ledgerEmpty: 'No coin movements yet.',
  ledgerAmount: 'Amount',
  ledgerKind: 'Kind',
  ledgerWhy: 'Reason or reference',
  ledgerBalance: 'Balance after',
  ledgerWhen: 'When',
  copy: 'Copy',
  copied: 'Copied',
  copyFailed: 'Could not copy: select the text and copy it by hand',
  // the image field and its library (image-picker.tsx)
  imageLibraryOpen: 'Choose from the library',
  imageLibraryClose: 'Close the library',
  imageLibrarySearch: 'Search pictures',
  imageLibraryEmpty: 'No pictures in the library yet.',
  imageLibraryPick: 'Use {{name}}',
  imageLibraryFailed: 'The library could not be loaded; an address still works.',
  imageLibraryHint: 'Pick a picture from the library or type an address.',
  // the admin screens' shared pieces (resource state, dates, the settings form)
  loadFailed: 'This could not be loaded.',
  dateTime: '{{value, datetime(dateStyle: medium; timeStyle: short)}}',
  settingsSave: 'Save changes',
  settingsSaved: 'The settings were saved.',
  settingsReadOnly: 'You may look at the settings but not change them: that needs the permission to edit settings.',
  settingsNothingChanged: 'Nothing has changed, so nothing was saved.',
  settingsPending: 'Unsaved changes: {{pending}}',
  settingsNoPending: 'No unsaved changes',
  settingDefault: 'Default: {{value}}',
  settingSecretSet: 'set',
  settingSecretNotSet: 'not set',
  settingSecretReplace: 'Type a new value to replace it',
  settingSecretEnter: 'Type a value',
  settingSecretHint: 'Stored values are never shown. Leave empty to keep what is stored.',
  settingRootOnlyBadge: 'root only',
  settingRootOnlyCode: "Only a root administrator can change this: its code runs in every visitor's browser.",
  settingRootOnlyAddress: 'Only a root administrator can change this: it decides where links, requests and secrets are sent.',
  settingBoolean: 'Choose yes or no.',
  settingNumber: 'Enter a number.',
  settingMin: 'Enter {{min}} or more.',
  settingMax: 'Enter {{max}} or less.',
  settingOption: 'Choose one of the options.',
  settingUrl: 'Enter an http:// or https:// address.',
  settingEmail: 'Enter a valid email address.',
  settingMaxLength: 'Use at most {{max}} characters.',
  // attaching files (file-picker.tsx)
  attachments: 'Attachments',
  attachFiles: 'Attach files',
  fileLimits: 'Up to {{count}} files of {{size}} each ({{types}}).',
  fileDropHint: 'Drop files here or paste a screenshot.',
  fileRemove: 'Remove {{name}}',
  fileTooLarge: '{{name}} is larger than {{size}}.',
  fileTypeRefused: '{{name}} is not an accepted kind of file ({{types}}).',
  fileTooMany: '{{name}} was not added: at most {{count}} files.',
  uploading: 'Uploading… {{percent}}%',
  openFullSize: 'Open {{name}} full size',
  downloadFile: 'Download {{name}}',
  earlySupporter: 'Early Supporter',
  earlySupporterHint: 'One of the panel’s first accounts',
};

export type SdkTextKey = keyof typeof SDK_TEXTS_EN;
export type SdkTexts = Record<SdkTextKey, string>;

/** Fetches the sdk's texts for a language (English is built in). */
export function loadSdkTexts(language: Language): Promise<SdkTexts> {
  switch (language) {
    case 'ro':
      return import('./sdk-texts/ro').then((m) => m.default);
    case 'md':
      return import('./sdk-texts/md').then((m) => m.default);
    case 'fr':
      return import('./sdk-texts/fr').then((m) => m.default);
    case 'de':
      return import('./sdk-texts/de').then((m) => m.default);
    case 'es':
      return import('./sdk-texts/es').then((m) => m.default);
    default:
      return Promise.resolve(SDK_TEXTS_EN);
  }
}
