// tapable types its package root only; its per-hook files export one class each (module.exports).
declare module 'tapable/lib/*.js' {
  const hookClass: unknown;
  export default hookClass;
}
