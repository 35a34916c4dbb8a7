// The sdk's own texts in Moldovan, which is written in the Latin alphabet as standard Romanian.
export { default } from './ro';
