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
  katexModule ??= Promise.all([import('katex'), import('katex/dist/katex.min.css')]).then(([katex]) => katex);
  return katexModule;
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

/// Yields to the browser (input and painting) between slices of work.
export function nextTask(): Promise<void> {
  return new Promise((done) => setTimeout(done, 0));
}

/// Replaces every TeX span under `root` with KaTeX output, in slices of about 30 ms so the page
/// stays responsive; resolves when done.
export async function typeset(root: HTMLElement): Promise<void> {
  const nodes = textNodesWithMath(root);
  if (nodes.length === 0) return;
  const katex = (await loadKatex()).default;
  let slice = performance.now();
  for (const node of nodes) {
    if (performance.now() - slice > 30) {
      await nextTask();
      slice = performance.now();
    }
    const text = node.nodeValue ?? '';
    const fragment = document.createDocumentFragment();
    let last = 0;
    for (const match of text.matchAll(delimiters)) {
      const start = match.index ?? 0;
      if (start > last) fragment.append(text.slice(last, start));
      const display = match[1] !== undefined;
      const target = document.createElement(display ? 'div' : 'span');
      target.className = display ? 'kl-math kl-math--display' : 'kl-math';
      katex.render(match[1] ?? match[2] ?? '', target, {
        displayMode: display,
        macros: { ...macros },
        throwOnError: false,
        output: 'htmlAndMathml',
      });
      // A display equation wider than a phone scrolls in a box of its own, named by its tag.
      if (display) scrollBox(`Equation ${/\\tag\{([^}]*)\}/.exec(match[1] ?? '')?.[1] ?? ''}`.trim(), [], target);
      fragment.append(target);
      last = start + match[0].length;
    }
    if (last === 0) continue;
    if (last < text.length) fragment.append(text.slice(last));
    node.replaceWith(fragment);
  }
}
