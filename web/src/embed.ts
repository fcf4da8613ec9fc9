/// embed.html?widget=NAME&…: exactly one widget, no page chrome; other URL parameters set its state.
import './styles.css';
import { mountWidget } from './core/host';
import { loadWidget, widgetNames } from './core/registry';

async function main(): Promise<void> {
  const container = document.getElementById('kl-embed');
  if (!container) return;
  const params = new URLSearchParams(location.search);
  const name = params.get('widget') ?? '';
  const widget = await loadWidget(name);
  if (!widget) {
    const message = document.createElement('p');
    message.className = 'kl-widget__error';
    message.setAttribute('role', 'alert');
    message.textContent = `Unknown widget "${name}". Available: ${widgetNames().join(', ')}.`;
    container.append(message);
    return;
  }
  document.title = `${widget.figure ? `${widget.figure}: ` : ''}${widget.title} — Kernel Lens`;
  mountWidget(widget, container, params, { embedded: true });
}

void main();
