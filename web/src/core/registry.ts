/// Widget discovery: every `widgets/<name>/index.ts`, loaded lazily (one chunk per widget).
import type { Schema } from './state';
import type { WidgetDefinition } from './widget';

type AnyWidget = WidgetDefinition<Schema>;

const modules = import.meta.glob<{ default: AnyWidget }>('../widgets/*/index.ts');

const loaders = new Map<string, () => Promise<{ default: AnyWidget }>>(
  Object.entries(modules).map(([path, load]) => [path.split('/').at(-2) ?? path, load]),
);

/// Every widget folder name, alphabetically.
export function widgetNames(): string[] {
  return [...loaders.keys()].sort();
}

export async function loadWidget(name: string): Promise<AnyWidget | null> {
  const load = loaders.get(name);
  if (!load) return null;
  const definition = (await load()).default;
  if (definition.name !== name) {
    throw new Error(`widget folder "${name}" exports a widget named "${definition.name}"`);
  }
  return definition;
}

/// Shows "Unknown widget" with the list of names in `container` (an alert).
export function showUnknownWidget(container: HTMLElement, name: string): void {
  const message = document.createElement('p');
  message.className = 'kl-widget__error';
  message.setAttribute('role', 'alert');
  message.textContent = `Unknown widget "${name}". Available: ${widgetNames().join(', ')}.`;
  container.append(message);
}

/// All widgets in chapter order.
export async function loadAllWidgets(): Promise<AnyWidget[]> {
  const all = await Promise.all(widgetNames().map(loadWidget));
  return all.filter((w): w is AnyWidget => w !== null).sort((a, b) => a.order - b.order);
}
