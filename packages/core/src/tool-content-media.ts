/**
 * Media helpers shared by the result converters: which image types the providers take, data URLs,
 * and the notes that replace media a target cannot carry (nothing is dropped without saying so).
 * @module
 */

/** Image types accepted by the Anthropic Messages API and OpenAI vision input alike. */
export type ProviderImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

const providerImageTypes: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
]);

/** `true` when both Anthropic and OpenAI accept images of this media type. */
export function isProviderImageType(mediaType: string): mediaType is ProviderImageMediaType {
  return providerImageTypes.has(mediaType);
}

/** `data:<mediaType>;base64,<data>`. */
export function toDataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

/** The text that stands in for an image whose type the target does not accept. */
export function unsupportedImageNote(mediaType: string, target: string): string {
  return `[image omitted: ${target} accepts only PNG, JPEG, GIF and WebP images, this one is ${mediaType}]`;
}

/** The text that stands in for an empty result (empty text blocks are rejected by some APIs). */
export const emptyResultText = '(no output)';
