import { scrollBox } from './scroll-box';

/// KaTeX typesetting of `$…$` (inline) and `$$…$$` (display) in an element's text, loaded lazily.

/// The chapter's notation macros.
const macros = {
  '\\vect': '\\mathbf{#1}',
  '\\matr': '\\mathbf{#1}',
  '\\norm': '\\left\\lVert #1 \\right\\rVert',
};

const delimiters = /\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g;

let katexModule: Promise<typeof import('katex')> | null = null;

function loadKatex(): Promise<typeof import('katex')> {
  // A failed load is tried again by the next typeset (the reader may be back online).
  katexModule ??= import('katex').catch((error: unknown) => {
    katexModule = null;
    throw error;
  });
  return katexModule;
}

/// KaTeX's stylesheet (its rules and 20 web fonts) is the site's largest, and most figures have
/// no math: it is a file of its own, linked where math is typeset, not part of the render-blocking
/// kernel-lens.css. The standalone file has no other files: there it is part of the one bundle.
let katexStylesheet: Promise<string | null> | null = null;
function katexStylesheetUrl(): Promise<string | null> {
  katexStylesheet ??=
    import.meta.env.MODE === 'standalone'
      ? import('katex/dist/katex.min.css').then(() => null)
      : import('katex/dist/katex.min.css?url').then(({ default: href }) => new URL(href, import.meta.url).href);
  return katexStylesheet;
}

/// The document or shadow roots the stylesheet was linked into, settling once it has loaded.
const styled = new WeakMap<Document | ShadowRoot, Promise<void>>();

/// Links KaTeX's stylesheet into the document, or into the shadow root `root` is in (typesetting
/// a detached element styles the document). Fonts declared in a shadow root's stylesheet are not
/// used by Chromium: for a shadow root, the stylesheet's fonts are also added to the document's
/// font set (FontFace objects, which the document's shadow roots share), and nothing else of
/// KaTeX's reaches the host page, whose own math may use another KaTeX.
function styleMath(root: HTMLElement): Promise<void> {
  const node = root.getRootNode();
  const scope: Document | ShadowRoot = node instanceof ShadowRoot ? node : root.ownerDocument;
  let done = styled.get(scope);
  if (!done) {
    done = katexStylesheetUrl().then(
      (href) => {
        if (href === null) return;
        const link = document.createElement('link');
        link.rel = 'stylesheet';
        // Its rules are read for the fonts: from another origin (a host page's figure) only with CORS,
        // which the site sends for the element's files anyway.
        link.crossOrigin = 'anonymous';
        link.href = href;
        const loaded = new Promise<void>((settle) => {
          link.addEventListener('load', () => settle(), { once: true });
          link.addEventListener('error', () => settle(), { once: true });
        });
        if (scope instanceof ShadowRoot) {
          scope.prepend(link);
          return loaded.then(() => shareFonts(link.sheet, href));
        }
        scope.head.append(link);
        return loaded;
      },
      () => undefined,
    );
    styled.set(scope, done);
  }
  return done;
}

const sharedFonts = new Set<string>();

/// Adds the @font-face rules of `sheet` (loaded from `href`) to the document's fonts, once each.
function shareFonts(sheet: CSSStyleSheet | null, href: string): void {
  if (!sheet || typeof FontFace !== 'function') return;
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return;
  }
  for (const rule of Array.from(rules)) {
    if (!(rule instanceof CSSFontFaceRule)) continue;
    const family = rule.style.getPropertyValue('font-family').replace(/^["']|["']$/g, '');
    const weight = rule.style.getPropertyValue('font-weight') || 'normal';
    const style = rule.style.getPropertyValue('font-style') || 'normal';
    const key = `${family} ${weight} ${style}`;
    if (!family || sharedFonts.has(key)) continue;
    // The sources' addresses are relative to the stylesheet.
    const source = rule.style
      .getPropertyValue('src')
      .replace(/url\((["']?)([^"')]+)\1\)/g, (_, _quote: string, url: string) => `url("${new URL(url, href).href}")`);
    try {
      const face = new FontFace(family, source, { weight, style, display: rule.style.getPropertyValue('font-display') as FontDisplay || 'auto' });
      document.fonts.add(face);
      sharedFonts.add(key);
    } catch {
      // A source this browser cannot read: the math keeps its fallback font.
    }
  }
}

function textNodesWithMath(root: Node): Text[] {
  const found: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      const parent = node.parentElement;
      if (parent?.closest('code, pre, script, style, .katex')) return NodeFilter.FILTER_REJECT;
      return node.nodeValue?.includes('$') ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
    },
  });
  while (walker.nextNode()) found.push(walker.currentNode as Text);
  return found;
}

/// Loads KaTeX and links its stylesheet where `root` is (see styleMath): a typeset under `root`
/// afterwards sets a few formulas before the browser next paints. Never rejects: when KaTeX does
/// not load, the figure mounts all the same and its formulas show as their TeX.
export async function prepareMath(root: HTMLElement): Promise<void> {
  await Promise.all([loadKatex(), styleMath(root)]).catch(() => undefined);
}

/// Yields to the browser (input and painting) between slices of work.
export function nextTask(): Promise<void> {
  return new Promise((done) => setTimeout(done, 0));
}

/// Replaces every TeX span under `root` with KaTeX output, in slices of about 8 ms (a slow phone
/// runs them about four times slower) so the page stays responsive; resolves when done. Until a
/// formula is typeset (KaTeX and its stylesheet load on first use), its TeX is in a hidden
/// placeholder that may wrap anywhere: no raw TeX on screen, and no unbreakable line of it wider
/// than a phone. A figure's own few formulas, set while it mounts, pass `sliceMs: Infinity`: all
/// of them before the browser paints (when prepareMath ran first), so no row changes height
/// after the figure is first seen.
export async function typeset(root: HTMLElement, { sliceMs = 8 }: { sliceMs?: number } = {}): Promise<void> {
  const pending: Array<{ target: HTMLElement; tex: string; display: boolean }> = [];
  for (const node of textNodesWithMath(root)) {
    const text = node.nodeValue ?? '';
    const fragment = document.createDocumentFragment();
    let last = 0;
    for (const match of text.matchAll(delimiters)) {
      const start = match.index ?? 0;
      if (start > last) fragment.append(text.slice(last, start));
      const display = match[1] !== undefined;
      const tex = match[1] ?? match[2] ?? '';
      const target = document.createElement(display ? 'div' : 'span');
      target.className = `kl-math kl-math--pending${display ? ' kl-math--display' : ''}`;
      target.textContent = tex;
      pending.push({ target, tex, display });
      fragment.append(target);
      last = start + match[0].length;
    }
    if (last === 0) continue;
    if (last < text.length) fragment.append(text.slice(last));
    node.replaceWith(fragment);
  }
  if (pending.length === 0) return;
  // Typeset only once the stylesheet is in: KaTeX's markup unstyled shows every formula twice.
  let katex: typeof import('katex').default;
  try {
    [{ default: katex }] = await Promise.all([loadKatex(), styleMath(root)]);
  } catch {
    // KaTeX did not load (offline, a missing file): the formulas show as their TeX.
    for (const { target } of pending) target.classList.remove('kl-math--pending');
    return;
  }
  let slice = performance.now();
  for (const { target, tex, display } of pending) {
    if (performance.now() - slice > sliceMs) {
      await nextTask();
      slice = performance.now();
    }
    katex.render(tex, target, {
      displayMode: display,
      macros: { ...macros },
      throwOnError: false,
      output: 'htmlAndMathml',
    });
    target.classList.remove('kl-math--pending');
    // A display equation wider than a phone scrolls in a box of its own, named by its tag.
    if (display) scrollBox(`Equation ${/\\tag\{([^}]*)\}/.exec(tex)?.[1] ?? ''}`.trim(), [], target);
  }
}
