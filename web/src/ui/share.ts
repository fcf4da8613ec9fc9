/// Shareable state: where a widget's state goes (the address bar, a link, an iframe embed code),
/// the iframe auto-height protocol, and copying text to the clipboard.
import { ASK_HEIGHT_MESSAGE, HEIGHT_MESSAGE } from '../base/messages';

/// How a mounted widget's state becomes an address. `params` holds only the values that differ
/// from the defaults (serializeState). A page that cannot give a usable address (a local file)
/// sets only `unavailable`, the reason shown in place of the share buttons.
export interface ShareTarget {
  /// The address that restores this widget exactly ("Copy link").
  link?(params: URLSearchParams): string;
  /// The ways to put this widget with this state on another page ("Copy embed code").
  embedCodes?(params: URLSearchParams, title: string): EmbedCode[];
  /// Writes the state into the address bar; absent when this mount does not own the address.
  reflect?(params: URLSearchParams): void;
  /// Why links and embed code are not offered.
  unavailable?: string;
}

/// One form of embed code: its button label and the HTML to paste.
export interface EmbedCode {
  label: string;
  code: string;
}

export const shareUnavailable =
  'No link or embed code here: this copy is a local file, and a file:// address opens on this computer only. Put the site (or this file) on a web server to share figures.';

/// The message an embedded widget posts to its parent window whenever its height changes (and
/// when the parent asks with `{ type: 'kernel-lens:ask-height' }`).
export interface HeightMessage {
  type: 'kernel-lens:height';
  /// The widget name (`embed.html?widget=<name>`).
  widget: string;
  /// The document height in CSS pixels (integer, rounded up).
  height: number;
}


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

/// The custom-element form: the loader script (once per page) and the element with the state
/// as attributes. The element's text shows only until the loader has run (the figure replaces
/// it): where a host page's policy or the network blocks the loader, no script of ours runs to
/// explain, so the text says what to allow.
export function elementCode(scriptSrc: string, widget: string, params: URLSearchParams): string {
  const attributes = [`widget="${escapeAttribute(widget)}"`];
  for (const [key, value] of params) attributes.push(`${key.toLowerCase()}="${escapeAttribute(value)}"`);
  return `<script type="module" src="${escapeAttribute(scriptSrc)}"></script>
<kernel-lens-figure ${attributes.join(' ')}>${escapeAttribute(fallbackText(scriptSrc))}</kernel-lens-figure>`;
}

/// What a `<kernel-lens-figure>` says while its loader has not run.
export function fallbackText(scriptSrc: string): string {
  let origin = scriptSrc;
  try {
    origin = new URL(scriptSrc, location.href).origin;
  } catch {
    // A relative or unreadable address: named as given.
  }
  return `Kernel Lens figure: loading ${scriptSrc}. If this stays, the page's Content-Security-Policy must allow ${origin} in script-src.`;
}

/// The iframe form for `src`. With `loaderSrc` the loader script follows it and sizes the iframe
/// to its figure (no inline code); without it the iframe keeps `height`.
export function iframeCode(src: string, title: string, height: number, loaderSrc?: string): string {
  const iframe = `<iframe data-kernel-lens src="${escapeAttribute(src)}" title="${escapeAttribute(title)}"
        width="100%" height="${Math.ceil(height)}" style="border:0; max-width:100%" loading="lazy" allow="clipboard-write"></iframe>`;
  return loaderSrc ? `${iframe}\n<script type="module" src="${escapeAttribute(loaderSrc)}"></script>` : iframe;
}

/// The origin the height and drawn messages go to: the parent's exact origin when the browser
/// tells it, else any (a height is not a secret; the parent checks where messages come from). A
/// page opened from a file has no origin a message can be addressed to ("null", or "file://",
/// which the browser drops), so it gets any.
export function parentOrigin(): string {
  const ancestors = location.ancestorOrigins;
  const origin = ancestors && ancestors.length > 0 ? ancestors[0] : null;
  return origin && origin !== 'null' && !origin.startsWith('file:') ? origin : '*';
}

/// Inside an iframe, posts `{ type: 'kernel-lens:height', widget, height }` to the parent on
/// every change of the document's height and when the parent asks; returns the stopper. Does nothing at top level.
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
  const answer = (event: MessageEvent): void => {
    if (event.source !== window.parent || (event.data as { type?: unknown } | null)?.type !== ASK_HEIGHT_MESSAGE) return;
    last = -1;
    send();
  };
  addEventListener('message', answer);
  const observer = new ResizeObserver(send);
  observer.observe(target);
  send();
  return () => {
    observer.disconnect();
    removeEventListener('message', answer);
  };
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
