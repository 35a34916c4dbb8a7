// The sdk's own texts in Spanish; loaded when the panel switches to that language.
import type { SdkTexts } from '../sdk-texts';

const texts: SdkTexts = {
  loading: 'Cargando…',
  retry: 'Reintentar',
  close: 'Cerrar',
  showPassword: 'Mostrar contraseña',
  hidePassword: 'Ocultar contraseña',
  pluginFailed: 'No se pudo mostrar «{{plugin}}».',
  details: 'Detalles',
  somethingWentWrong: 'Algo salió mal. Inténtalo de nuevo.',
  networkError: 'No se pudo contactar con el servidor. Comprueba tu conexión e inténtalo de nuevo.',
  serverError: 'El servidor tuvo un problema. Inténtalo de nuevo más tarde.',
  serverUnavailable: 'El servidor no está disponible en este momento. Inténtalo de nuevo más tarde.',
  nothingHere: 'Aún no hay nada aquí.',
  dialogOk: 'Aceptar',
  dialogNo: 'No',
  dialogCancel: 'Cancelar',
  invalidEmail: 'Dirección de correo electrónico no válida',
  invalidUrl: 'URL no válida',
  search: 'Buscar',
  clearSearch: 'Borrar la búsqueda',
  pagination: 'Páginas',
  previousPage: 'Anterior',
  nextPage: 'Siguiente',
  pageOf: 'Página {{page}} de {{pages}}',
  goToPage: 'Página {{page}}',
  showingRange: '{{from}}–{{to}} de {{total}}',
  noResults: 'Nada coincide con tu búsqueda.',
  listFailed: 'No se pudo cargar esta lista.',
  cancel: 'Cancelar',
  actionFailed: 'No se pudo realizar la acción.',
};

export default texts;
