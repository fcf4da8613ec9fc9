/// Shareable state: where a widget's state goes (the address bar, a link, an iframe embed code),
/// the iframe auto-height protocol, and copying text to the clipboard.

/// How a mounted widget's state becomes an address. `params` holds only the values that differ
/// from the defaults (serializeState).
export interface ShareTarget {
  /// The address that restores this widget exactly ("Copy link").
  link(params: URLSearchParams): string;
  /// The iframe `src` for this widget with this state ("Copy embed code").
  embedUrl(params: URLSearchParams): string;
  /// Writes the state into the address bar; absent when this mount does not own the address.
  reflect?(params: URLSearchParams): void;
}

/// The message an embedded widget posts to its parent window whenever its height changes.
export interface HeightMessage {
  type: 'kernel-lens:height';
  /// The widget name (`embed.html?widget=<name>`).
  widget: string;
  /// The document height in CSS pixels (integer, rounded up).
  height: number;
}

export const HEIGHT_MESSAGE = 'kernel-lens:height';

/// `embed.html?widget=<name>&<params>` resolved against `root` (the site's folder).
export function embedAddress(root: string | URL, widget: string, params: URLSearchParams): string {
  const search = new URLSearchParams({ widget });
  for (const [key, value] of params) search.append(key, value);
  return new URL(`embed.html?${search}`, root).href;
}

/// `page` (the current address by default) with its query replaced by `?widget=<name>&<params>`,
/// keeping any other query parameters that are not part of the widget's schema.
export function widgetAddress(
  widget: string,
  params: URLSearchParams,
  schemaKeys: readonly string[],
  page: string = location.href,
): string {
  const url = new URL(page);
  const search = new URLSearchParams({ widget });
  for (const [key, value] of params) search.append(key, value);
  for (const [key, value] of new URLSearchParams(url.search)) {
    if (key !== 'widget' && !schemaKeys.includes(key)) search.append(key, value);
  }
  url.search = search.toString();
  return url.href;
}

/// The full page's address with `<widget>.<param>` entries for one widget replaced by `params`.
export function pageAddress(widget: string, params: URLSearchParams, page: string = location.href): string {
  const url = new URL(page);
  const prefix = `${widget}.`;
  const search = new URLSearchParams();
  for (const [key, value] of new URLSearchParams(url.search)) {
    if (!key.startsWith(prefix)) search.append(key, value);
  }
  for (const [key, value] of params) search.append(prefix + key, value);
  url.search = search.toString();
  return url.href;
}

/// The `<widget>.<param>` entries of the full page's query, without the prefix.
export function pageParams(widget: string, search: URLSearchParams): URLSearchParams {
  const prefix = `${widget}.`;
  const params = new URLSearchParams();
  for (const [key, value] of search) if (key.startsWith(prefix)) params.append(key.slice(prefix.length), value);
  return params;
}

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/// The parent-page listener of the height protocol: accepts messages only from `origin` and only
/// from one of the page's `iframe[data-kernel-lens]` windows, then sets that iframe's height.
export function parentSnippet(origin: string): string {
  return `<script>
addEventListener('message', (event) => {
  if (event.origin !== ${JSON.stringify(origin)}) return;
  const data = event.data;
  if (!data || data.type !== '${HEIGHT_MESSAGE}' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe[data-kernel-lens]')) {
    if (frame.contentWindow === event.source) frame.style.height = Math.ceil(data.height) + 'px';
  }
});
</script>`;
}

/// An iframe that sizes itself (with the parent listener) for `src`.
export function embedCode(src: string, title: string, height: number): string {
  const origin = new URL(src).origin;
  const iframe = `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" data-kernel-lens
        width="100%" height="${Math.ceil(height)}" style="border:0; max-width:100%" loading="lazy"></iframe>`;
  return origin.startsWith('http') ? `${iframe}\n${parentSnippet(origin)}` : iframe;
}

/// The origin the height messages go to: the parent's exact origin when the browser tells it,
/// else any (a height is not a secret; the parent checks where messages come from).
function parentOrigin(): string {
  const ancestors = location.ancestorOrigins;
  const origin = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  return origin && origin !== 'null' ? origin : '*';
}

/// Inside an iframe, posts `{ type: 'kernel-lens:height', widget, height }` to the parent on
/// every change of the document's height; returns the stopper. Does nothing at top level.
export function reportHeight(widget: string, target: HTMLElement): () => void {
  if (window.parent === window) return () => undefined;
  const origin = parentOrigin();
  let last = -1;
  const send = (): void => {
    const height = Math.ceil(target.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    const message: HeightMessage = { type: HEIGHT_MESSAGE, widget, height };
    window.parent.postMessage(message, origin);
  };
  const observer = new ResizeObserver(send);
  observer.observe(target);
  send();
  return () => observer.disconnect();
}

/// Copies `text`; falls back to a selected textarea where the Clipboard API is unavailable
/// (file://, insecure contexts, denied permission). Resolves to whether it worked.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
    return copied;
  }
}
