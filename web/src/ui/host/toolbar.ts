/// The figure's share and download row, below it.
import type { CsvRows } from '../download';
import { copyText, type ShareTarget } from '../share';
import type { ExportTable, WidgetDefinition } from './widget';

/// The figure's share and download row: "Copy link", "Copy embed code", and a disclosure listing
/// a PNG download per chart canvas and a CSV download per provided table (built when opened).
export function toolbar(
  definition: Pick<WidgetDefinition, 'name' | 'title' | 'figure'>,
  frame: HTMLElement,
  exports: readonly ExportTable[],
  params: () => URLSearchParams,
  share: ShareTarget | undefined,
): { element: HTMLElement; stateChanged(): void; destroy(): void } {
  const element = document.createElement('div');
  element.className = 'kl-share kl-no-print';
  const status = document.createElement('span');
  status.className = 'kl-share__status';
  status.setAttribute('role', 'status');
  let clearStatus: ReturnType<typeof setTimeout> | undefined;
  const say = (message: string): void => {
    status.textContent = message;
    clearTimeout(clearStatus);
    clearStatus = setTimeout(() => (status.textContent = ''), 4000);
  };
  const action = (label: string, run: () => Promise<void> | void): HTMLButtonElement => {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = 'kl-button kl-button--small';
    node.textContent = label;
    node.addEventListener('click', () => {
      Promise.resolve(run()).catch((reason: unknown) => say(reason instanceof Error ? reason.message : String(reason)));
    });
    return node;
  };
  const title = `Kernel Lens: ${definition.figure ? `${definition.figure}, ` : ''}${definition.title}`;

  const links: HTMLElement[] = [];
  if (share?.link) {
    const link = share.link;
    links.push(
      action('Copy link', async () => {
        const copied = await copyText(link(params()));
        say(copied ? 'Link copied.' : 'Copying was refused; the link is in the address bar.');
      }),
    );
  }
  if (share?.embedCodes) {
    const codes = share.embedCodes;
    links.push(
      menu('kl-share__embed', 'Copy embed code', () =>
        codes(params(), title).map(({ label, code }) =>
          action(label, async () => {
            say((await copyText(code)) ? `${label} code copied.` : 'Copying was refused by the browser.');
          }),
        ),
      ),
    );
  }
  element.append(...links);
  if (share?.unavailable) {
    const why = document.createElement('p');
    why.className = 'kl-share__why';
    why.textContent = share.unavailable;
    element.append(why);
  }

  const downloads = menu('kl-share__downloads', 'Download', () => {
    const canvases = [...frame.querySelectorAll<HTMLCanvasElement>('.kl-widget__body canvas[role="img"]')];
    const buttons = canvases.map((canvas, i) => {
      const name = canvas.dataset.exportName ?? `chart ${i + 1}`;
      const node = action(`${name} (PNG)`, async () => {
        const { downloadPng } = await import('../../charts/export');
        await downloadPng(canvas, fileName(definition.name, name, 'png'));
      });
      node.title = canvas.getAttribute('aria-label') ?? name;
      return node;
    });
    for (const table of exports) {
      buttons.push(
        action(`${table.name} (CSV)`, async () => {
          const rows: CsvRows = await table.csv();
          if (rows.length === 0) throw new Error('nothing to export yet: the figure is still computing');
          const { downloadCsv } = await import('../download');
          downloadCsv(rows, fileName(definition.name, table.name, 'csv'));
        }),
      );
    }
    return buttons;
  });
  element.append(downloads, status);

  let reflectTimer: ReturnType<typeof setTimeout> | undefined;
  return {
    element,
    stateChanged() {
      if (!share?.reflect) return;
      clearTimeout(reflectTimer);
      reflectTimer = setTimeout(() => share.reflect?.(params()), 250);
    },
    destroy() {
      clearTimeout(reflectTimer);
      clearTimeout(clearStatus);
    },
  };
}

function fileName(widget: string, name: string, extension: string): string {
  return `${widget}-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.${extension}`;
}

/// A disclosure menu (`<details>`) whose items are built each time it opens (from the state then).
function menu(className: string, title: string, items: () => HTMLElement[]): HTMLDetailsElement {
  const details = document.createElement('details');
  details.className = className;
  const summary = document.createElement('summary');
  summary.textContent = title;
  const list = document.createElement('div');
  list.className = 'kl-share__list';
  details.append(summary, list);
  details.addEventListener('toggle', () => {
    if (details.open) list.replaceChildren(...items());
  });
  return details;
}
