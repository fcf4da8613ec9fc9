/// The leave-one-out risk beside the audit's (section 12.4): the noise σ² that every held-out
/// observation carries and the audit's error against the truth does not, the audit's grid
/// minimum, the exact risk's minimum on the leave-one-out curve's grid and that curve's own
/// minimum. Every number is the core's (chapterConfig, biasVarianceSweep, exactRisk, gridMinimum).
import { call } from '../../engine';
import { fixed, significant } from '../../ui/format';
import type { WidgetHost } from '../../ui/host/widget';

/// The sentence, at the chapter's laboratory settings, for the leave-one-out curve `risks` over
/// `bandwidths`.
export async function auditComparison(host: Pick<WidgetHost, 'run'>, bandwidths: Float64Array, risks: Float64Array): Promise<string> {
  const [config, audit, exact] = await host.run([
    call('chapterConfig'),
    call('biasVarianceSweep'),
    call('exactRisk', { bandwidths: Array.from(bandwidths) }),
  ] as const);
  const [auditBest, exactBest, looBest] = await host.run([
    call('gridMinimum', audit.map((row) => row.bandwidth), audit.map((row) => row.mse)),
    call('gridMinimum', bandwidths, exact.map((row) => row.mse)),
    call('gridMinimum', bandwidths, risks),
  ] as const);
  const h = (x: number): string => significant(x, 3);
  return (
    `Beside the audit: this curve is lowest at h = ${h(looBest.bandwidth)}, R = ${fixed(looBest.risk, 4)}. ` +
    `Each held-out observation carries the noise, σ² = ${fixed(config.noise ** 2, 4)}, which the audit's error against the truth does not; ` +
    `the audit's grid is lowest at h = ${h(auditBest.bandwidth)} (MSE ${fixed(auditBest.risk, 4)}), ` +
    `and the exact risk on this curve's grid at h = ${h(exactBest.bandwidth)} (MSE ${fixed(exactBest.risk, 4)}).`
  );
}
