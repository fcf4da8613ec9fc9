/// The full page: every widget in chapter order, each preceded by its prose.
import './styles.css';
import { mountWidget } from './core/host';
import { typeset } from './core/math-text';
import { loadAllWidgets } from './core/registry';

async function main(): Promise<void> {
  const page = document.getElementById('kl-page');
  const container = document.getElementById('kl-widgets');
  if (!page || !container) return;
  const widgets = await loadAllWidgets();
  const params = new URLSearchParams();
  for (const widget of widgets) {
    const section = document.createElement('section');
    section.className = 'kl-section';
    section.id = `section-${widget.name}`;
    if (widget.prose) {
      const prose = document.createElement('div');
      prose.className = 'kl-prose';
      prose.innerHTML = widget.prose;
      section.append(prose);
    }
    container.append(section);
    mountWidget(widget, section, params, { embedded: false });
  }
  container.removeAttribute('aria-busy');
  await typeset(page);
}

void main();
