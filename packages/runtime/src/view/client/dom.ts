/**
 * Builds DOM nodes. Every string becomes a text node (`textContent`), never markup: a test name,
 * a log line or a model's output that holds `<script>` shows as text (issue #25, item 4). The one
 * place markup is set is the diff, from diff2html, which escapes what it renders (diff-view.ts).
 * @module
 */

type Child = Node | string | number | null | undefined | false;
type Props = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/**
 * An element with `props` (`class`, attributes, `on<event>` listeners) and `children` (nodes, or
 * strings as text).
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'class') element.className = String(value);
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends `children` to `parent`, strings as text. */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** A `#fragment` link to an instance: its id, percent-encoded where it must be. */
export function instanceHref(id: string): string {
  return `#${encodeURIComponent(id)}`;
}

/** A relative path as a link target, each segment encoded. */
export function fileHref(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
