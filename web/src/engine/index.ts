/// The engine's public face: what the rest of the site may import from web/src/engine/ (the
/// bridge and its latest-wins channels, the call descriptions, and the result types of the
/// core's functions). Everything else in this folder is the engine's own.
export { Bridge, Channel, CoreError, isRefusal, sharedBridge } from './bridge';
export { call, keeping, resultOf, type CoreCall, type CoreFunctionName, type CoreResults } from './protocol';
export type {
  AuditWorlds,
  BandCoverage,
  BandwidthSelection,
  ChapterConfig,
  CsvTable,
  KernelName,
  RiskRow,
  StandardizeExercise,
  UnderflowReport,
} from 'kernel-lens-wasm/kernel_lens.mjs';
