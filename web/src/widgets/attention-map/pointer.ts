/// The pointer on the heat map picks the highlighted query (its row): pressing on a row or moving over
/// one selects it, as the row slider does.
import type { Heatmap } from '../../charts/heatmap';
import type { WidgetHost } from '../../ui/host/widget';

/// Calls `select(row)` with the row under the pointer whenever it presses or moves over the
/// plot, until the figure goes.
export function followPointer(host: Pick<WidgetHost, 'listen'>, heatmap: Heatmap, select: (row: number) => void): void {
  const follow = (event: PointerEvent): void => {
    const row = heatmap.rowAt(event.clientY);
    if (row !== null) select(row);
  };
  host.listen(heatmap.plot, 'pointermove', follow);
  host.listen(heatmap.plot, 'pointerdown', follow);
}
