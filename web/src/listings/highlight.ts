/// A small Python highlighter for the chapter's listings: comments, strings (prefixed, triple
/// quoted), numbers, keywords, builtins and constants, decorators, and the names `def` defines,
/// each a <span class="kl-py-…"> around the listing's own text (which stays verbatim).

const KEYWORDS = new Set(
  'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);
const CONSTANTS = new Set(['True', 'False', 'None']);
const BUILTINS = new Set('abs all any bool dict enumerate float int isinstance len list max min print range round set sorted str sum tuple type zip'.split(' '));

const TOKEN =
  /(#[^\n]*)|((?:[rRbBfFuU]{1,2})?(?:"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))|(@[A-Za-z_][\w.]*)|(\b\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?\b|\.\d+\b)|([A-Za-z_]\w*)/g;

/// The listing's text as highlighted nodes (their text content is `code`, unchanged).
export function highlightPython(code: string): DocumentFragment {
  const out = document.createDocumentFragment();
  let at = 0;
  let afterDef = false;
  const span = (className: string, text: string): void => {
    const node = document.createElement('span');
    node.className = className;
    node.textContent = text;
    out.append(node);
  };
  for (const match of code.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > at) out.append(code.slice(at, index));
    const [text, comment, string, decorator, number, name] = match;
    if (comment) span('kl-py-c', text);
    else if (string) span('kl-py-s', text);
    else if (decorator) span('kl-py-d', text);
    else if (number) span('kl-py-n', text);
    else if (name && afterDef) span('kl-py-f', text);
    else if (name && KEYWORDS.has(name)) span('kl-py-k', text);
    else if (name && (CONSTANTS.has(name) || BUILTINS.has(name))) span('kl-py-b', text);
    else out.append(text);
    afterDef = name === 'def' || name === 'class';
    at = index + text.length;
  }
  if (at < code.length) out.append(code.slice(at));
  return out;
}
