// The sdk's own texts in Moldovan, which is written in the Latin alphabet as standard Romanian; the
// admin screens' texts address the administrator formally, as the admin area always has in Moldovan.
import type { SdkTexts } from '../sdk-texts';
import ro from './ro';

const texts: SdkTexts = {
  ...ro,
  settingsReadOnly: 'Puteți vedea setările, dar nu le puteți schimba: pentru asta e nevoie de permisiunea de a edita setările.',
  settingSecretReplace: 'Scrieți o valoare nouă pentru a o înlocui',
  settingSecretEnter: 'Scrieți o valoare',
  settingSecretHint: 'Valorile salvate nu sunt afișate niciodată. Lăsați gol pentru a păstra ce e salvat.',
  settingRootOnlyCode: 'Doar un administrator root poate schimba aceasta: codul rulează în browserul fiecărui vizitator.',
  settingRootOnlyAddress: 'Doar un administrator root poate schimba aceasta: decide unde ajung linkurile, cererile și secretele.',
  settingBoolean: 'Alegeți da sau nu.',
  settingNumber: 'Introduceți un număr.',
  settingMin: 'Introduceți {{min}} sau mai mult.',
  settingMax: 'Introduceți {{max}} sau mai puțin.',
  settingOption: 'Alegeți una dintre opțiuni.',
  settingUrl: 'Introduceți o adresă http:// sau https://.',
  settingEmail: 'Introduceți o adresă de email validă.',
  settingMaxLength: 'Folosiți cel mult {{max}} caractere.',
  // atașarea fișierelor (file-picker.tsx), la forma de politețe
  attachFiles: 'Atașați fișiere',
  fileDropHint: 'Trageți fișierele aici sau lipiți o captură de ecran.',
  fileRemove: 'Eliminați {{name}}',
  openFullSize: 'Deschideți {{name}} la dimensiunea completă',
  downloadFile: 'Descărcați {{name}}',
  // the image field and its library (image-picker.tsx)
  imageLibraryOpen: 'Alegeți din bibliotecă',
  imageLibraryClose: 'Închideți biblioteca',
  imageLibrarySearch: 'Căutați imagini',
  imageLibraryPick: 'Folosiți {{name}}',
  imageLibraryHint: 'Alegeți o imagine din bibliotecă sau scrieți o adresă.',
};

export default texts;
