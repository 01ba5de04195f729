/**
 * The text of an XML attribute or element as printed by a runner's XML reporter.
 * @module
 */

/** Replaces the five predefined XML entities with their characters. Pure; never throws. */
export function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
