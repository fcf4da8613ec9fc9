// A live-region recorder for the browser tests: an init script that watches every live region
// (aria-live polite/assertive, roles status/alert/log/timer/marquee, <output>) in the document and
// in shadow roots, and records each change of a region's text to a non-empty one as one
// announcement in `window.__announcements` ({ text, at }).

/// The init script (pass as `init` to `site.newPage`).
export function recordAnnouncements() {
  const LIVE_ROLES = new Set(['status', 'alert', 'log', 'timer', 'marquee']);
  const announcements = [];
  const last = new WeakMap();
  window.__announcements = announcements;
  const parentOf = (node) => node.parentElement ?? (node.parentNode instanceof ShadowRoot ? node.parentNode.host : null);
  function regionOf(node) {
    for (let el = node.nodeType === 1 ? node : parentOf(node); el; el = parentOf(el)) {
      const live = el.getAttribute('aria-live');
      if (live === 'off') return null;
      if (live === 'polite' || live === 'assertive' || LIVE_ROLES.has(el.getAttribute('role')) || el.tagName === 'OUTPUT') return el;
    }
    return null;
  }
  const shown = (el) => !el.closest('[hidden], [aria-hidden="true"]') && el.getClientRects().length > 0;
  const observer = new MutationObserver((records) => {
    const regions = new Set();
    for (const record of records) {
      const region = regionOf(record.target);
      if (region) regions.add(region);
      for (const node of record.addedNodes) {
        if (node.nodeType === 1) for (const inner of [node, ...node.querySelectorAll('*')]) if (regionOf(inner) === inner) last.set(inner, (inner.textContent ?? '').trim());
      }
    }
    for (const region of regions) {
      const text = (region.textContent ?? '').replace(/\s+/g, ' ').trim();
      const before = last.get(region) ?? '';
      last.set(region, text);
      if (text && text !== before && shown(region)) announcements.push({ text, at: performance.now() });
    }
  });
  const watch = (root) => observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
  watch(document);
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init);
    watch(root);
    return root;
  };
}

/// The announcements recorded so far.
export async function announcements(page) {
  return page.evaluate(() => window.__announcements.map(({ text }) => text));
}

/// Waits until `figure` has drawn, has nothing under way and no sentence waiting to be said
/// (`data-kl-announcing`, see web/src/ui/host/figure-host.ts).
export async function quiet(figure, timeout = 15000) {
  await figure.page().waitForFunction(
    (element) => element.dataset.klDrawn && !element.hasAttribute('data-kl-busy') && !element.hasAttribute('data-kl-announcing'),
    await figure.elementHandle(),
    { timeout },
  );
}
