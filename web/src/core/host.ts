/// Mounts a widget definition into a frame with its notes and error areas.
import { sharedBridge } from './bridge';
import type { Channel } from './bridge';
import { parseState, type Schema, type StateOf } from './state';
import type { MountedWidget, WidgetDefinition, WidgetHost } from './widget';

let instances = 0;

export interface MountOptions {
  embedded: boolean;
  /// Called after every state change (URL reflection hooks in here).
  onStateChange?: (state: Record<string, unknown>) => void;
}

export interface MountedFrame extends MountedWidget {
  readonly frame: HTMLElement;
  readonly host: WidgetHost;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

/// Builds `<figure class="kl-widget">` in `container`, parses `params` against the widget's
/// schema (rejected parameters become a visible note) and mounts the widget.
export function mountWidget<S extends Schema>(
  definition: WidgetDefinition<S>,
  container: HTMLElement,
  params: URLSearchParams,
  options: MountOptions,
): MountedFrame {
  const id = `kl-${definition.name}-${++instances}`;
  const frame = element('figure', 'kl-widget');
  frame.dataset.widget = definition.name;
  frame.id = id;
  frame.setAttribute('aria-labelledby', `${id}-title`);

  const header = element('figcaption', 'kl-widget__title');
  header.id = `${id}-title`;
  if (definition.figure) {
    const label = element('span', 'kl-widget__figure');
    label.textContent = `${definition.figure}. `;
    header.append(label);
  }
  header.append(definition.title);

  const notes = element('ul', 'kl-widget__notes');
  notes.setAttribute('role', 'status');
  notes.setAttribute('aria-live', 'polite');
  const error = element('p', 'kl-widget__error');
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const root = element('div', 'kl-widget__body');

  frame.append(header, notes, root, error);
  container.append(frame);

  const parsed = parseState(definition.params, params);
  let state: StateOf<S> = parsed.state;
  const bridge = sharedBridge();

  const host: WidgetHost<S> = {
    root,
    embedded: options.embedded,
    bridge,
    channel: (key: string): Channel => bridge.channel(`${id}/${key}`),
    note(message) {
      const item = element('li', 'kl-widget__note');
      item.textContent = message;
      notes.append(item);
      return () => item.remove();
    },
    showError(reason) {
      const message = reason instanceof Error ? reason.message : String(reason);
      error.textContent = message;
      error.hidden = false;
      frame.classList.add('kl-widget--error');
    },
    clearError() {
      if (error.hidden) return;
      error.hidden = true;
      error.textContent = '';
      frame.classList.remove('kl-widget--error');
    },
    get state() {
      return state;
    },
    setState(partial) {
      state = { ...state, ...partial };
      options.onStateChange?.(state as Record<string, unknown>);
    },
  };

  if (parsed.rejected.length > 0) {
    host.note(`Invalid parameters fell back to their defaults: ${parsed.rejected.join('; ')}.`);
  }
  const mounted = definition.mount(host, state);
  return {
    frame,
    host: host as unknown as WidgetHost,
    destroy() {
      mounted.destroy();
      frame.remove();
    },
  };
}
