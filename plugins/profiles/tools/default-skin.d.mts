// Types of default-skin.mjs (a plain Node script, so it runs without a build step).
export const SKIN_SIZE: number;
export interface SkinRect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface BoxFaces {
  top: SkinRect;
  bottom: SkinRect;
  right: SkinRect;
  front: SkinRect;
  left: SkinRect;
  back: SkinRect;
}
export const SKIN_PARTS: Readonly<Record<'head' | 'body' | 'rightArm' | 'leftArm' | 'rightLeg' | 'leftLeg', BoxFaces>>;
export const HAT_LAYER: BoxFaces;
export function defaultSkinPixels(): Uint8Array;
export function crc32(bytes: Uint8Array): number;
export function encodePng(pixels: Uint8Array, width: number, height: number): Buffer;
export function defaultSkinPng(): Buffer;
