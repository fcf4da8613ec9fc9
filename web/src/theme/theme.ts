/// Light and dark themes per theme root. `applyTheme(root, mode)` marks a root element with
/// `data-kl-theme="light|dark"` (styles.css switches the `--kl-*` colour variables on it) and, in
/// `auto` mode, keeps the mark in step with the host page. Every chart and heat map reads its
/// colours and font from the computed style of the theme root it sits in, so a figure on a light
/// host and one on a dark host keep their own palettes, and a `--kl-*` variable set on the root
/// recolours the figure's charts.
import { HOST_THEME_MESSAGE } from '../base/messages';
import { pageTheme, watchPageTheme, type Theme } from './host-theme';

export type ThemeMode = 'light' | 'dark' | 'auto';
export type { Theme };

/// The chapter's palette plus the theme's ink, resolved from the CSS variables in styles.css.
export interface Palette {
  text: string;
  muted: string;
  grid: string;
  background: string;
  navy: string;
  orange: string;
  brown: string;
  grey: string;
  truth: string;
  sample: string;
  /// Okabe–Ito colours for curve series (the chapter's 0.05 / 0.18 / 0.65 curves first).
  series: string[];
  /// The font family charts draw their texts in (the root's computed `font-family`).
  font: string;
}

/// Anything placed in a theme root: an element, or a chart (by its canvas).
export type ThemeTarget = Element | { canvas: HTMLCanvasElement | null };

/// Roots given a theme by `applyTheme`, with their state.
interface RootState {
  mode: ThemeMode;
  theme: Theme;
  /// The root's inline style when last read (a changed `--kl-*` override re-reads the palette).
  style: string;
}
const roots = new Map<Element, RootState>();

/// The root a figure is being mounted into: widgets read `palette()` while they build their
/// charts, before these are in the page.
let mountSource: Element | null = null;

/// Names the element a figure is about to be mounted into (its theme root or an element in it).
export function setThemeSource(element: Element): void {
  mountSource = element;
}

/// The nearest element carrying `data-kl-theme` above `node` (crossing shadow roots), else the
/// document element.
function rootAbove(node: Node | null): Element | null {
  let current: Node | null = node;
  while (current) {
    if (current instanceof Element && current.hasAttribute('data-kl-theme')) return current;
    current = current.parentNode ?? (current instanceof ShadowRoot ? current.host : null);
  }
  return null;
}

/// The theme root of `target`: the nearest marked element above it; for an element not yet in
/// the page, the root the figure is being mounted into; else the document element.
export function themeRootOf(target?: ThemeTarget | null): Element {
  const node = target instanceof Element ? target : (target?.canvas ?? null);
  if (node?.isConnected) return rootAbove(node) ?? document.documentElement;
  if (mountSource?.isConnected) return rootAbove(mountSource) ?? mountSource;
  return document.documentElement;
}

function cssVariable(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const v = (name: string, fallback: string): string => cssVariable(style, name, fallback);
  return {
    text: v('--kl-text', '#1d2333'),
    muted: v('--kl-muted', '#5b6272'),
    grid: v('--kl-grid', 'rgba(0,0,0,0.1)'),
    background: v('--kl-surface', '#ffffff'),
    navy: v('--kl-navy', '#232D4B'),
    orange: v('--kl-orange', '#E57200'),
    brown: v('--kl-brown', '#B45309'),
    grey: v('--kl-grey', '#B0B7C3'),
    truth: v('--kl-truth', '#000000'),
    sample: v('--kl-sample', '#555555'),
    series: [1, 2, 3, 4, 5, 6].map((i) => v(`--kl-series-${i}`, '#0072B2')),
    font: style.fontFamily || 'sans-serif',
  };
}

/// Palettes read so far, per theme root; a root's entry goes when its theme changes. (Reading
/// computed styles in the middle of a frame's drawing would make the browser recompute styles.)
const palettes = new WeakMap<Element, Palette>();

/// The palette of the theme root `target` sits in (see `themeRootOf`).
export function palette(target?: ThemeTarget | null): Palette {
  const root = themeRootOf(target);
  let colors = palettes.get(root);
  if (!colors) {
    colors = readPalette(root);
    palettes.set(root, colors);
  }
  return colors;
}

/// `#rrggbb` (or any CSS colour) with an alpha, for Chart.js.
export function withAlpha(color: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (!hex?.[1]) return color;
  const n = parseInt(hex[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha.toFixed(3)})`;
}

interface Listener {
  target: Element | null;
  redraw: (colors: Palette) => void;
}
/// Listeners in registration order: the charts' own (axes, fonts) first, then the figures'.
const listeners = new Set<Listener>();

/// Calls `redraw` with the new palette whenever the theme root of `target` (by default the root
/// a figure is being mounted into) changes theme or colours; returns the unsubscriber.
export function onThemeChange(redraw: (colors: Palette) => void, target: Element | null = mountSource): () => void {
  const listener: Listener = { target, redraw };
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/// Re-reads `root`'s palette and tells everything drawn in it.
function recolor(root: Element): void {
  palettes.delete(root);
  const colors = palette(root);
  for (const listener of [...listeners]) {
    if (!listeners.has(listener)) continue;
    if (themeRootOf(listener.target) === root) listener.redraw(colors);
  }
}

/// What the host page says about its theme (see host-theme.ts); `<html>`'s own `color-scheme` is
/// not read when `root` is `<html>` itself, whose `color-scheme` the theme sets. Inside a Kernel
/// Lens iframe, the host page's loader may say it instead (`followHostTheme`).
export function hostTheme(root?: Element): Theme {
  return relayedTheme ?? pageTheme(root !== document.documentElement);
}

/// The host page's theme as its loader passed it to this iframe (null: none passed).
let relayedTheme: Theme | null = null;

/// In an iframe whose host page runs the loader: `auto` roots follow the theme it posts.
export function followHostTheme(): void {
  if (window.parent === window) return;
  addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: unknown; theme?: unknown } | null;
    if (event.source !== window.parent || data?.type !== HOST_THEME_MESSAGE) return;
    if (data.theme !== 'light' && data.theme !== 'dark') return;
    relayedTheme = data.theme;
    refreshAll();
  });
}

/// One observer of the host page for every `auto` root.
let watching = false;
function refreshAll(): void {
  for (const [root, state] of roots) refresh(root, state);
}
function watchHost(): void {
  if (watching) return;
  watching = true;
  watchPageTheme(refreshAll);
}

/// Brings `root`'s mark and palette up to date; recolours what it holds when either changed.
function refresh(root: Element, state: RootState): void {
  if (!root.isConnected && state.mode === 'auto') return;
  const theme = state.mode === 'auto' ? hostTheme(root) : state.mode;
  const style = root.getAttribute('style') ?? '';
  const changed = theme !== state.theme || style !== state.style;
  state.theme = theme;
  state.style = style;
  if (root.getAttribute('data-kl-theme') !== theme) root.setAttribute('data-kl-theme', theme);
  if (changed) recolor(root);
}

/// Gives `root` the theme `mode` names (`auto`: the host page's, followed live) and recolours
/// every chart and heat map inside it when the theme or its inline `--kl-*` colours change.
/// Returns the disposer (the mark stays; the root stops following the host).
export function applyTheme(root: HTMLElement, mode: ThemeMode): () => void {
  const theme = mode === 'auto' ? hostTheme(root) : mode;
  const before = root.getAttribute('data-kl-theme');
  const state: RootState = { mode, theme, style: root.getAttribute('style') ?? '' };
  roots.set(root, state);
  root.setAttribute('data-kl-theme', theme);
  const own = new MutationObserver(() => refresh(root, state));
  own.observe(root, { attributes: true, attributeFilter: ['style'] });
  watchHost();
  // A root that had another theme recolours what it holds; a new one is read when first drawn.
  if (before !== null && before !== theme) recolor(root);
  else palettes.delete(root);
  return () => {
    own.disconnect();
    if (roots.get(root) === state) roots.delete(root);
  };
}

/// The theme `mode` names for an attribute or URL value (anything else: `auto`).
export function themeMode(value: string | null | undefined): ThemeMode {
  return value === 'light' || value === 'dark' ? value : 'auto';
}
