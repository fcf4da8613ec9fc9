/// dist/kernel-lens.js: the <kernel-lens-figure> custom element.
///   <script type="module" src="https://…/kernel-lens.js"></script>
///   <kernel-lens-figure widget="lookup" h="0.6" q="3.5"></kernel-lens-figure>
/// Each figure lives in an open shadow root with the site's styles; its attributes are the embed
/// parameters (matched without regard to case, so `keyseed` sets `keySeed`) and are observed: a
/// change re-mounts the figure with the new state. Every figure on a page shares one worker and
/// one wasm instance (the module's shared bridge).
import { applyTheme, setThemeSource, themeMode } from './charts/theme';
import { mountWidget, type MountedFrame } from './core/host';
import { loadWidget, showUnknownWidget } from './core/registry';
import { embedAddress, type ShareTarget } from './core/share';

/// The site folder this script was loaded from (kernel-lens.js sits at its top).
const siteRoot = new URL(/* @vite-ignore */ '.', import.meta.url);
const stylesheet = new URL('assets/kernel-lens.css', siteRoot).href;

/// Attributes of the element itself, never widget parameters.
const OWN_ATTRIBUTES = new Set(['widget', 'theme', 'font', 'id', 'class', 'style', 'title', 'hidden', 'lang', 'dir', 'slot']);

/// Attributes whose change re-mounts the figure: all but the theme's and the element's own marks.
const remounts = (name: string | null): boolean => name !== null && !name.startsWith('data-kl-') && !['theme', 'font', 'style', 'class'].includes(name);

export class KernelLensFigure extends HTMLElement {
  private readonly container: HTMLElement;
  private readonly observer = new MutationObserver((records) => {
    if (records.some((record) => record.attributeName === 'theme' || record.attributeName === 'font')) this.theme();
    if (records.some((record) => remounts(record.attributeName))) void this.render();
  });
  private stopTheme: (() => void) | null = null;
  private mounted: MountedFrame | null = null;
  private generation = 0;
  /// Settles when the shadow root's stylesheet has loaded (or failed): charts read its colours.
  private readonly styled: Promise<void>;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    this.styled = new Promise((done) => {
      link.addEventListener('load', () => done(), { once: true });
      link.addEventListener('error', () => done(), { once: true });
    });
    link.href = stylesheet;
    this.container = document.createElement('div');
    this.container.className = 'kl-element';
    shadow.append(link, this.container);
  }

  connectedCallback(): void {
    this.theme();
    this.observer.observe(this, { attributes: true });
    void this.render();
  }

  /// The element is its figure's theme root: `theme="light|dark|auto"` (auto by default), and
  /// `font="inherit"` takes the host page's font.
  private theme(): void {
    this.stopTheme?.();
    this.stopTheme = applyTheme(this, themeMode(this.getAttribute('theme')));
    if (this.getAttribute('font') === 'inherit') this.setAttribute('data-kl-font', 'inherit');
    else this.removeAttribute('data-kl-font');
  }

  disconnectedCallback(): void {
    this.stopTheme?.();
    this.stopTheme = null;
    this.observer.disconnect();
    this.generation++;
    this.mounted?.destroy();
    this.mounted = null;
  }

  /// The widget's parameters from the attributes (attribute names are lower case in HTML).
  private parameters(schemaKeys: readonly string[]): URLSearchParams {
    const params = new URLSearchParams();
    for (const { name, value } of Array.from(this.attributes)) {
      if (OWN_ATTRIBUTES.has(name) || name.startsWith('data-kl-')) continue;
      const key = schemaKeys.find((candidate) => candidate.toLowerCase() === name.toLowerCase()) ?? name;
      params.set(key, value);
    }
    return params;
  }

  private async render(): Promise<void> {
    const generation = ++this.generation;
    const name = this.getAttribute('widget') ?? '';
    const [widget] = await Promise.all([loadWidget(name).catch(() => null), this.styled]);
    if (generation !== this.generation) return;
    setThemeSource(this.container);
    this.mounted?.destroy();
    this.mounted = null;
    this.container.replaceChildren();
    if (!widget) {
      showUnknownWidget(this.container, name);
      return;
    }
    const share: ShareTarget = {
      link: (params) => embedAddress(siteRoot, name, params),
      embedUrl: (params) => embedAddress(siteRoot, name, params),
    };
    this.mounted = mountWidget(widget, this.container, this.parameters(Object.keys(widget.params)), {
      embedded: true,
      share,
    });
  }
}

if (!customElements.get('kernel-lens-figure')) customElements.define('kernel-lens-figure', KernelLensFigure);
