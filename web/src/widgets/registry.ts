/// Widget discovery: every `widgets/<name>/index.ts`, loaded lazily (one chunk per widget).
import { echoed, nearestName, type Schema } from '../ui/state';
import type { WidgetDefinition } from '../ui/host/widget';

type AnyWidget = WidgetDefinition<Schema>;

const modules = import.meta.glob<{ default: AnyWidget }>('./*/index.ts');

const loaders = new Map<string, () => Promise<{ default: AnyWidget }>>(
  Object.entries(modules).map(([path, load]) => [path.split('/').at(-2) ?? path, load]),
);

const metas = import.meta.glob<{ default: WidgetMeta }>('./*/meta.ts', { eager: true });

/// What the page knows of a figure before its script loads (widgets/<name>/meta.ts).
export interface WidgetMeta {
  readonly title: string;
  readonly figure?: string;
  readonly order: number;
}

/// Every widget's name and meta, in chapter order.
export function widgetMetas(): Array<WidgetMeta & { name: string }> {
  return Object.entries(metas)
    .map(([path, module]) => ({ name: path.split('/').at(-2) ?? path, ...module.default }))
    .filter(({ name }) => loaders.has(name))
    .sort((a, b) => a.order - b.order);
}

/// Every widget folder name, alphabetically.
export function widgetNames(): string[] {
  return [...loaders.keys()].sort();
}

/// The widget named `name` (null when there is none). Its script is a chunk of its own: when it
/// fails to load (offline, a file missing on the server) and `container` is given, the container
/// shows why with a Retry button, and the promise settles once a retry succeeds; without a
/// container the failure rejects.
export async function loadWidget(name: string, container?: HTMLElement): Promise<AnyWidget | null> {
  const load = loaders.get(name);
  if (!load) return null;
  const definition = (await retrying(container, `The figure "${name}"`, load)).default;
  if (definition.name !== name) {
    throw new Error(`widget folder "${name}" exports a widget named "${definition.name}"`);
  }
  return definition;
}

/// `load()`, and on failure (with a container) an alert with a Retry button until it succeeds.
async function retrying<T>(container: HTMLElement | undefined, what: string, load: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await load();
    } catch (error) {
      if (!container) throw error;
      await showLoadFailure(container, what, error);
    }
  }
}

/// Shows why `what` could not be loaded, with a Retry button; resolves (and removes the alert)
/// when the reader presses it.
function showLoadFailure(container: HTMLElement, what: string, error: unknown): Promise<void> {
  const box = document.createElement('div');
  box.className = 'kl-widget__error kl-load-error';
  box.setAttribute('role', 'alert');
  const reason = error instanceof Error ? error.message : String(error);
  const message = document.createElement('p');
  message.textContent = `${what} could not be loaded (${reason}). Check the connection, then retry.`;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'kl-button';
  retry.textContent = 'Retry';
  box.append(message, retry);
  container.append(box);
  return new Promise((done) => {
    retry.addEventListener('click', () => {
      box.remove();
      done();
    });
  });
}

/// Shows "Unknown widget" with the list of names in `container` (an alert).
export function showUnknownWidget(container: HTMLElement, name: string): void {
  const message = document.createElement('p');
  message.className = 'kl-widget__error';
  message.setAttribute('role', 'alert');
  const names = widgetNames();
  const guess = nearestName(names, name);
  message.textContent = `Unknown widget "${echoed(name)}"${guess ? `; did you mean ${guess}?` : ''}. Available: ${names.join(', ')}.`;
  container.append(message);
}
